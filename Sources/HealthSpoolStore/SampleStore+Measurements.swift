import HealthSpoolCore

extension SampleStore {
    /// The samples of `type` from `source` that start in `[fromMillis, toMillis)`, newest
    /// first, at most `limit`: the measurements a person typed in (`ManualMeasurement.source`).
    /// The source's id is written into the query as a literal, so that for the typed-in
    /// measurements SQLite can use their partial index (`Schema.manualIndex`) and read only
    /// them; for another source it walks one range of the `(type, start_ms)` index from its end.
    public func samples(type: String, source: SampleSource, fromMillis: Int64, toMillis: Int64,
                        limit: Int) throws(StoreError) -> [StoredSample] {
        guard let id = try typeID(type, create: false), let sourceID = try existingSourceID(source) else { return [] }
        let s = try cached(Self.sourceSamplesQuery(sourceID: sourceID))
        s.bind(1, id); s.bind(2, fromMillis); s.bind(3, toMillis); s.bind(4, Int64(limit))
        defer { s.reset() }
        var out: [StoredSample] = []
        while try s.step() { out.append(try readSample(s, type: type)) }
        return out
    }

    static func sourceSamplesQuery(sourceID: Int64) -> String {
        """
        SELECT \(sampleColumns) FROM samples WHERE type = ?1 AND start_ms >= ?2 AND start_ms < ?3 AND deleted = 0
        AND source_id = \(sourceID) ORDER BY start_ms DESC LIMIT ?4
        """
    }

    /// The row id of `source`; nil when no sample of it was ever stored (nothing is added).
    func existingSourceID(_ source: SampleSource) throws(StoreError) -> Int64? {
        let s = try cached("SELECT id FROM sources WHERE name = ?1 AND version = ?2 AND device = ?3")
        s.bind(1, source.name); s.bind(2, source.version ?? ""); s.bind(3, source.device ?? "")
        defer { s.reset() }
        return try s.step() ? s.int(0) : nil
    }
}

extension SampleStore {
    /// A reading as a record of it needs it: the sample's id, its start in its own offset, its value.
    public struct IdentifiedReading: Sendable, Equatable {
        public var id: SampleID
        public var start: Timestamp
        public var value: Double
    }

    /// The live samples of `type` that start in `from..<to`, oldest first, with their ids (the
    /// doctor's summary lists these one by one; its FHIR file names them by id).
    public func identifiedReadings(type: String, from: Int64, to: Int64) throws(StoreError) -> [IdentifiedReading] {
        guard let id = try typeID(type, create: false) else { return [] }
        let s = try cached("""
            SELECT id, start_ms, start_off, value FROM samples
            WHERE type = ?1 AND start_ms >= ?2 AND start_ms < ?3 AND deleted = 0 ORDER BY start_ms
            """)
        s.bind(1, id); s.bind(2, from); s.bind(3, to)
        defer { s.reset() }
        var out: [IdentifiedReading] = []
        while try s.step() {
            out.append(IdentifiedReading(id: s.id(0) ?? SampleID(bytes: [UInt8](repeating: 0, count: 16)),
                                         start: Timestamp(millis: s.int(1), utcOffsetSeconds: Int32(truncatingIfNeeded: s.int(2))),
                                         value: s.double(3)))
        }
        return out
    }
}
