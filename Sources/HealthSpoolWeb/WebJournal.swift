@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
import HealthSpoolStore

/// The symptom journal's use cases (`JournalUseCases`) opened for one web request, on the store
/// queue. Records put in line are announced to the daemon through its control socket, exactly
/// as the command line does, so the daemon syncs them as it syncs imports.
enum WebJournal {
    static func open(_ ctx: DaemonContext) throws -> JournalUseCases { try JournalUseCases.open(context: ctx) }

    /// The journal's use cases on a connection borrowed from the pool.
    static func on(_ store: SampleStore, _ ctx: DaemonContext) -> JournalUseCases { JournalUseCases.on(store, context: ctx) }

    /// What a page says when a journal write failed: plainly that it was not saved when the
    /// store stayed busy (`StoreBusy`), else the error as it reads.
    static func message(_ error: any Error) -> String { StoreBusy.message(for: error) ?? "\(error)" }

    /// `message`, with "Not saved: " before an error that does not say so itself.
    static func notSaved(_ error: any Error) -> String { StoreBusy.message(for: error) ?? "Not saved: \(error)" }

    /// Symptoms offered when the user has logged few of their own.
    static let commonSymptoms = ["Headache", "Tiredness", "Dizziness", "Nausea", "Back pain", "Shortness of breath"]

    /// The symptoms to offer as buttons: the user's most logged (recent entries first, then
    /// their journal's symptoms), filled up with common ones, at most `limit`, without case
    /// duplicates.
    static func suggestions(_ journal: JournalUseCases, limit: Int = 8) throws -> [String] {
        let recent = try journal.symptoms(on: nil)
        var counts: [String: (name: String, count: Int, first: Int)] = [:]
        for (i, e) in recent.enumerated() where !e.deleted {
            let key = e.symptom.lowercased()
            let old = counts[key] ?? (e.symptom, 0, i)
            counts[key] = (old.name, old.count + 1, old.first)
        }
        var out = counts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.first < $1.first }.map(\.name)
        for name in try journal.categories().flatMap(\.symptoms) + commonSymptoms
        where !out.contains(where: { $0.lowercased() == name.lowercased() }) {
            out.append(name)
        }
        return Array(out.prefix(limit))
    }
}
