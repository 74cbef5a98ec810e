import HealthSpoolCore

extension SampleStore {
    /// The samples of `type` from `source` that start in `[fromMillis, toMillis)`, newest
    /// first, at most `limit`: the measurements a person typed in (`ManualMeasurement.source`).
    /// One range of the `(type, start_ms)` index, walked from its end.
    public func samples(type: String, source: SampleSource, fromMillis: Int64, toMillis: Int64,
                        limit: Int) throws(StoreError) -> [StoredSample] {
        guard let id = try typeID(type, create: false) else { return [] }
        let s = try cached("""
            SELECT \(Self.sampleColumns) FROM samples WHERE type = ?1 AND start_ms >= ?2 AND start_ms < ?3 AND deleted = 0
            AND source_id = (SELECT id FROM sources WHERE name = ?4 AND version = ?5 AND device = ?6)
            ORDER BY start_ms DESC LIMIT ?7
            """)
        s.bind(1, id); s.bind(2, fromMillis); s.bind(3, toMillis)
        s.bind(4, source.name); s.bind(5, source.version ?? ""); s.bind(6, source.device ?? "")
        s.bind(7, Int64(limit))
        defer { s.reset() }
        var out: [StoredSample] = []
        while try s.step() { out.append(try readSample(s, type: type)) }
        return out
    }
}
