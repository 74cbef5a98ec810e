import HealthSpoolCore

extension Schema {
    /// The name of the index of the samples typed in by the person (`ManualMeasurement.source`).
    static let manualIndex = "samples_manual"

    /// Indexes the measurements a person typed in, apart from everything imported: a partial
    /// index on the one source they come from, so the measurements page finds the few readings
    /// of a kind without walking the watch's minute-by-minute heart rate of the same 90 days
    /// (124,164 rows on the ten-year benchmark store). A partial index can only name a constant,
    /// and a source's row id differs from store to store: so it is made here, once, with the id
    /// of that store's row (added first when the store has none). Imports pay only the check of
    /// each row's source; the first opening of a large store after an upgrade reads its samples
    /// once to build the index. Queries name the same id as a literal (`manualSourceID`).
    static func indexManualEntries(_ c: Connection) throws(StoreError) {
        let exists = try c.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = '\(manualIndex)'")
        if try exists.step() { return }
        try c.exec("BEGIN IMMEDIATE")
        do {
            if try manualSourceID(c) == nil {
                let add = try c.prepare("INSERT INTO sources(name, version, device) VALUES (?1, '', ?2)")
                add.bind(1, ManualMeasurement.source.name); add.bind(2, ManualMeasurement.source.device ?? "")
                try add.run()
            }
            if let id = try manualSourceID(c) {
                try c.exec("CREATE INDEX IF NOT EXISTS \(manualIndex) ON samples(type, start_ms) WHERE source_id = \(id)")
            }
            try c.exec("COMMIT")
        } catch {
            try? c.exec("ROLLBACK")
            throw error
        }
    }

    /// The row id of `ManualMeasurement.source`, which `manualIndex` names.
    static func manualSourceID(_ c: Connection) throws(StoreError) -> Int64? {
        let source = ManualMeasurement.source
        let s = try c.prepare("SELECT id FROM sources WHERE name = ?1 AND version = '' AND device = ?2")
        s.bind(1, source.name); s.bind(2, source.device ?? "")
        return try s.step() ? s.int(0) : nil
    }
}
