import HealthJournal
import HealthSpoolConfig
import HealthSpoolLinux
import HealthSpoolCore
import HealthSpoolStore

extension ExportImporter {
    /// Turns the symptom samples an import stored (HealthKit's symptom types, from Apple Health
    /// or Health Auto Export) into health journal entries, in line for the gateway like the
    /// journal's own; the journal types that gained records join `gained`, so they are synced
    /// like the import's types. Only runs when the import stored symptoms.
    func absorbSymptoms(into summary: inout ImportSummary, settings: Settings) {
        guard summary.result.gained.keys.contains(where: { DataType.lookup($0)?.category == .symptoms }) else { return }
        let journal = HealthJournal(store: store, zone: Configuration.readZone(ProcessEnvironment.current), settings: settings, clock: clock)
        var queued: [String] = []
        journal.onQueued = { queued += $0 }
        do {
            let added = try journal.absorbImports()
            for t in queued { summary.result.gained[t, default: 0] += max(1, added) }
        } catch {
            // The samples are stored; the journal picks them up the next time it is read.
            logger.warning("could not add imported symptoms to the journal: \(error)", metadata: ["event": "import"])
        }
    }
}
