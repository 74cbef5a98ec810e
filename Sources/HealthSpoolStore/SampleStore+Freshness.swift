import HealthSpoolCore

/// The new samples of the open transaction and session per source name and type, on their way
/// to `source_freshness` (schema step 10).
struct ArrivalTracker {
    /// A source row and a type row, as the insert meets them.
    struct RowKey: Hashable {
        var source: Int64
        var type: Int64
    }
    /// A source's name and a type's name: a row of `source_freshness`.
    struct NameKey: Hashable {
        var source: String
        var type: String
    }
    /// Newest sample start and arrival time, per source and type, not yet committed.
    var pending: [NameKey: (newest: Int64, at: Int64)] = [:]
    /// The same, committed but not yet written (an import session holds them to its end).
    var held: [NameKey: (newest: Int64, at: Int64)] = [:]
    /// The newest start stored per source row and type row before the session began.
    var before: [RowKey: Int64] = [:]
    /// Whether a session (`beginArrivals`) holds the writes to its end.
    var session = false

    mutating func note(source: String, type: String, newest: Int64, at: Int64) {
        let key = NameKey(source: source, type: type)
        let old = pending[key]
        pending[key] = (max(old?.newest ?? .min, newest), max(old?.at ?? .min, at))
    }

    mutating func committed() {
        for (k, v) in pending {
            let old = held[k]
            held[k] = (max(old?.newest ?? .min, v.newest), max(old?.at ?? .min, v.at))
        }
        pending = [:]
    }

    mutating func rolledBack() { pending = [:] }
}

/// Freshness per source and type (issue 43): the newest sample and the last arrival of each,
/// written as imports happen (`SourceFreshness` holds the rule), never found by a scan.
extension SampleStore {
    /// Holds the freshness writes of the inserts that follow until `endArrivals`: an import's
    /// batches are one arrival, and "late" means older than what was stored before it.
    public func beginArrivals() {
        arrivals.session = true
        arrivals.before = [:]
    }

    /// Writes what the session's committed inserts brought (one transaction) and ends it.
    public func endArrivals() throws(StoreError) {
        arrivals.session = false
        arrivals.committed()
        defer { arrivals.held = [:]; arrivals.before = [:] }
        guard !arrivals.held.isEmpty else { return }
        try inTransaction { () throws(StoreError) in try writeArrivals() }
    }

    /// Inside a commit: writes the arrivals unless a session holds them.
    func flushArrivalsUnlessHeld() throws(StoreError) {
        guard !arrivals.session, !arrivals.pending.isEmpty else { return }
        arrivals.committed()
        try writeArrivals()
        arrivals.held = [:]
        arrivals.before = [:]
    }

    private func writeArrivals() throws(StoreError) {
        for (key, value) in arrivals.held {
            let next = try freshness(source: key.source, type: key.type).map { $0.arrived(newest: value.newest, at: value.at) }
                ?? SourceFreshness(source: key.source, type: key.type, newestMillis: value.newest, arrivedMillis: value.at)
            try saveFreshness(next)
        }
    }

    /// The newest start stored for a source row and type before the session (`Int64.min` when none).
    func newestBefore(source: Int64, type typeName: String) throws(StoreError) -> Int64 {
        guard let t = try typeID(typeName, create: false) else { return .min }
        let key = ArrivalTracker.RowKey(source: source, type: t)
        if let known = arrivals.before[key] { return known }
        let value = try freshness(source: self.source(id: source).name, type: typeName)?.newestMillis ?? .min
        arrivals.before[key] = value
        return value
    }

    /// The freshness of one source and type.
    public func freshness(source: String, type: String) throws(StoreError) -> SourceFreshness? {
        let q = try cached("SELECT newest_ms, arrived_ms, usual_gap_ms, arrivals, notified_ms FROM source_freshness WHERE source = ?1 AND type = ?2")
        q.bind(1, source); q.bind(2, type)
        defer { q.reset() }
        guard try q.step() else { return nil }
        return SourceFreshness(source: source, type: type, newestMillis: q.int(0), arrivedMillis: q.int(1), usualGapMillis: q.int(2),
                               arrivals: Int(q.int(3)), notifiedMillis: q.isNull(4) ? nil : q.int(4))
    }

    /// Every source and type delivered so far, by source then type.
    public func freshness() throws(StoreError) -> [SourceFreshness] {
        let q = try conn.prepare("SELECT source, type, newest_ms, arrived_ms, usual_gap_ms, arrivals, notified_ms FROM source_freshness ORDER BY source, type")
        var out: [SourceFreshness] = []
        while try q.step() {
            out.append(SourceFreshness(source: q.string(0) ?? "", type: q.string(1) ?? "", newestMillis: q.int(2), arrivedMillis: q.int(3),
                                       usualGapMillis: q.int(4), arrivals: Int(q.int(5)), notifiedMillis: q.isNull(6) ? nil : q.int(6)))
        }
        return out
    }

    /// Notes that the person was told `f` went quiet, unless samples arrived since it was read.
    public func markNotified(_ f: SourceFreshness, at now: Timestamp) throws(StoreError) {
        let s = try cached("UPDATE source_freshness SET notified_ms = ?4 WHERE source = ?1 AND type = ?2 AND arrived_ms = ?3")
        s.bind(1, f.source); s.bind(2, f.type); s.bind(3, f.arrivedMillis); s.bind(4, now.millis)
        try s.run()
    }

    /// Writes one source's freshness.
    public func saveFreshness(_ f: SourceFreshness) throws(StoreError) {
        let s = try cached("""
            INSERT INTO source_freshness(source, type, newest_ms, arrived_ms, usual_gap_ms, arrivals, notified_ms) VALUES (?1,?2,?3,?4,?5,?6,?7)
            ON CONFLICT(source, type) DO UPDATE SET newest_ms = excluded.newest_ms, arrived_ms = excluded.arrived_ms,
                usual_gap_ms = excluded.usual_gap_ms, arrivals = excluded.arrivals, notified_ms = excluded.notified_ms
            """)
        s.bind(1, f.source); s.bind(2, f.type); s.bind(3, f.newestMillis); s.bind(4, f.arrivedMillis)
        s.bind(5, f.usualGapMillis); s.bind(6, f.arrivals); s.bind(7, f.notifiedMillis)
        try s.run()
    }
}
