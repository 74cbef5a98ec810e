import HealthSpoolCore

/// Deleting a stored sample (a measurement typed in by hand) and putting it back: the row
/// stays, flagged `deleted` (schema step 4's column), and goes out once more as a tombstone;
/// putting it back clears the flag and sends it again. Each change takes a new version and a
/// fresh row id past every sync mark, so the gateway gets the tombstone after the sample and
/// the sample again after the tombstone. Readers of figures leave deleted rows out.
extension SampleStore {
    /// A stored sample as its row has it, deleted or not.
    public struct SampleRow: Sendable, Equatable {
        public var id: SampleID
        public var value: Double
        public var endMillis: Int64
        public var metadata: [String: String]
        public var version: Int
        public var deleted: Bool
    }

    /// Where a sample's row is: its type, start and id (the store's unique key).
    public struct SampleKey: Sendable, Hashable {
        public var type: String
        public var startMillis: Int64
        public var id: SampleID
        public init(type: String, startMillis: Int64, id: SampleID) {
            self.type = type
            self.startMillis = startMillis
            self.id = id
        }
    }

    /// The rows of `type` that start at `startMillis`, deleted ones included (one point of the
    /// `(type, start_ms)` index).
    public func rows(type: String, startMillis: Int64) throws(StoreError) -> [SampleRow] {
        guard let t = try typeID(type, create: false) else { return [] }
        let q = try conn.prepare("SELECT id, value, end_ms, metadata, version, deleted FROM samples WHERE type = ?1 AND start_ms = ?2 ORDER BY rowid")
        q.bind(1, t); q.bind(2, startMillis)
        var out: [SampleRow] = []
        while try q.step() {
            out.append(SampleRow(id: q.id(0) ?? SampleID(bytes: [UInt8](repeating: 0, count: 16)), value: q.double(1), endMillis: q.int(2),
                                 metadata: Self.decodeMetadata(q.string(3)), version: Int(q.int(4)), deleted: q.int(5) != 0))
        }
        return out
    }

    /// Flags the samples at `keys` deleted (or not), each under a new version (at least 2: a
    /// versioned record, so the gateway reads the flag) and put in line again; the days they
    /// fall on get their rollups recomputed. Returns the types put in line (a sample already in
    /// the asked state is left as it is).
    @discardableResult
    public func setDeleted(_ keys: [SampleKey], deleted: Bool) throws(StoreError) -> [String] {
        try inTransaction { () throws(StoreError) -> [String] in
            var types: Set<String> = []
            let first = try nextRowID()
            var next = first
            for k in keys {
                guard let t = try typeID(k.type, create: false) else { continue }
                // Prepared once per connection: a full export's deletions mark hundreds at once.
                let find = try cached("SELECT end_ms FROM samples WHERE type = ?1 AND start_ms = ?2 AND id = ?3 AND deleted != ?4")
                find.bind(1, t); find.bind(2, k.startMillis); find.bind(3, id: k.id); find.bind(4, deleted ? 1 : 0)
                guard try find.step() else { find.reset(); continue }
                let end = find.int(0)
                find.reset()
                let change = try cached("""
                    UPDATE samples SET deleted = ?4, version = max(version, 1) + 1, rowid = ?5, state = 0, parked_ms = NULL, dead_reason = NULL
                    WHERE type = ?1 AND start_ms = ?2 AND id = ?3
                    """)
                change.bind(1, t); change.bind(2, k.startMillis); change.bind(3, id: k.id); change.bind(4, deleted ? 1 : 0); change.bind(5, next)
                try change.run()
                next += 1
                rollups.mark(type: k.type, start: k.startMillis, end: end)
                types.insert(k.type)
            }
            try queueFreshRows(from: first, through: next - 1)
            try flushRollups()
            return types.sorted()
        }
    }

    /// Rewrites a stored sample's metadata (a measurement stored again with the same id but,
    /// say, another blood-pressure pairing); it goes out with the sample's next version.
    public func setMetadata(_ key: SampleKey, _ metadata: [String: String]) throws(StoreError) {
        guard let t = try typeID(key.type, create: false) else { return }
        let s = try conn.prepare("UPDATE samples SET metadata = ?4 WHERE type = ?1 AND start_ms = ?2 AND id = ?3")
        s.bind(1, t); s.bind(2, key.startMillis); s.bind(3, id: key.id); s.bind(4, Self.encodeMetadata(metadata))
        try s.run()
    }
}
