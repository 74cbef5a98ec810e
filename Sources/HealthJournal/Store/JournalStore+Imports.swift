import HealthSpoolCore
import HealthSpoolStore

/// A symptom sample of an import, as the journal reads it.
public struct ImportedSymptom: Sendable, Equatable {
    public var sampleID: SampleID
    /// The registry type (`headache`).
    public var type: String
    /// HealthKit's severity number (0 unspecified … 4 severe).
    public var value: Double
    public var start: Timestamp
}

extension JournalStore {
    /// The state key of the last sample row the journal has looked at for imported symptoms.
    static let importedThroughKey = "journal.importedThrough"

    /// Symptom samples (HealthKit's symptom types, from any import) stored since the last call:
    /// per symptom type, an index range past the row last looked at (never a scan of the
    /// samples). Returns them with the row to pass to `markImported(through:)`.
    public func newImportedSymptoms() throws(StoreError) -> (symptoms: [ImportedSymptom], through: Int64) {
        let stateQuery = try conn.prepare("SELECT value FROM state WHERE key = ?")
        stateQuery.bind(1, Self.importedThroughKey)
        let after: Int64 = try stateQuery.step() ? Int64(stateQuery.string(0) ?? "0") ?? 0 : 0
        stateQuery.reset()
        let names = DataType.all.filter { $0.category == .symptoms }.map(\.name)
        let types = try conn.prepare("SELECT id, name FROM types WHERE name IN (\(names.map { _ in "?" }.joined(separator: ",")))")
        for (i, n) in names.enumerated() { types.bind(Int32(i + 1), n) }
        var found: [(Int64, String)] = []
        while try types.step() { found.append((types.int(0), types.string(1) ?? "")) }
        let q = try conn.prepare("""
            SELECT rowid, id, value, start_ms, start_off FROM samples WHERE type = ? AND state IN (0, 2) AND rowid > ? ORDER BY rowid
            """)
        var out: [ImportedSymptom] = []
        var through = after
        for (id, name) in found {
            q.bind(1, id); q.bind(2, after)
            while try q.step() {
                through = max(through, q.int(0))
                guard let sid = q.id(1) else { continue }
                out.append(ImportedSymptom(sampleID: sid, type: name, value: q.double(2),
                                           start: Timestamp(millis: q.int(3), utcOffsetSeconds: Int32(truncatingIfNeeded: q.int(4)))))
            }
            q.reset()
        }
        return (out, through)
    }

    /// Records that sample rows up to `row` were looked at for imported symptoms.
    public func markImported(through row: Int64) throws(StoreError) {
        let s = try conn.prepare("INSERT OR REPLACE INTO state(key, value) VALUES (?, ?)")
        s.bind(1, Self.importedThroughKey); s.bind(2, String(row))
        try s.run()
    }
}
