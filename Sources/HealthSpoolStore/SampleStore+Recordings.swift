import HealthSpoolCore

/// A stored sample with its metadata: a route part or an ECG, read whole for display.
public struct RecordedSample: Sendable {
    public var start: Timestamp
    public var end: Timestamp
    public var value: Double
    public var source: String
    public var metadata: [String: String]
}

extension SampleStore {
    /// The samples of `type` starting in `from..<to` (UTC ms), oldest first, with their metadata
    /// (routes' points and ECGs' voltages: read only for the day shown).
    public func recordings(type: String, from: Int64, to: Int64) throws(StoreError) -> [RecordedSample] {
        guard let id = try typeID(type, create: false) else { return [] }
        let s = try cached("""
            SELECT s.start_ms, s.start_off, s.end_ms, s.end_off, s.value, src.name, s.metadata FROM samples AS s
            JOIN sources AS src ON src.id = s.source_id
            WHERE s.type = ?1 AND s.start_ms >= ?2 AND s.start_ms < ?3 AND s.deleted = 0 ORDER BY s.start_ms
            """)
        s.bind(1, id); s.bind(2, from); s.bind(3, to)
        defer { s.reset() }
        var out: [RecordedSample] = []
        while try s.step() {
            out.append(RecordedSample(start: Timestamp(millis: s.int(0), utcOffsetSeconds: Int32(s.int(1))),
                                      end: Timestamp(millis: s.int(2), utcOffsetSeconds: Int32(s.int(3))),
                                      value: s.double(4), source: s.string(5) ?? "", metadata: Self.decodeMetadata(s.string(6))))
        }
        return out
    }
}
