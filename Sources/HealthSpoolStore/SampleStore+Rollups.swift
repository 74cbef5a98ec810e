import HealthSpoolCore

/// What the store keeps between a write and its commit to bring the daily rollups up to date.
struct RollupTracker {
    /// The zone and source priority rollups are computed with.
    var policy = RollupPolicy()
    /// Days changed by the open transaction, by type name.
    var dirty: [String: Set<Int64>] = [:]
    /// Whether the stored rollups were checked to be of `policy` on this connection.
    var checked = false

    mutating func mark(type: String, start: Int64, end: Int64) {
        let days = policy.days(type: type, start: start, end: end)
        if days.count == 1, dirty[type]?.contains(days.lowerBound) == true { return }
        dirty[type, default: []].formUnion(days)
    }
}

/// Daily rollups: per day and type the figures the day view and calendar show, recomputed from
/// the samples of every day a write touched, inside the write's transaction (docs/formats.md,
/// "Day totals"). A month reads about 30 rows per figure instead of the samples.
extension SampleStore {
    /// The zone and source priority of the rollups. Setting another policy than the stored
    /// rollups were computed with rebuilds them at the next write or `ensureRollups`.
    public var rollupPolicy: RollupPolicy {
        get { rollups.policy }
        set {
            if newValue != rollups.policy { rollups.checked = false }
            rollups.policy = newValue
        }
    }

    /// Rebuilds the rollups when they were computed under another policy (or never). Returns
    /// whether it rebuilt.
    @discardableResult
    public func ensureRollups() throws(StoreError) -> Bool {
        guard !rollups.checked else { return false }
        if try state("rollups.policy") == rollups.policy.key { rollups.checked = true; return false }
        try rebuildRollups()
        return true
    }

    /// Recomputes every rollup from the samples, in one transaction.
    public func rebuildRollups() throws(StoreError) {
        try inTransaction { () throws(StoreError) in
            try conn.exec("DELETE FROM day_rollups")
            let span = try conn.prepare("SELECT name, (SELECT min(start_ms) FROM samples WHERE type = types.id), (SELECT max(end_ms) FROM samples WHERE type = types.id) FROM types")
            var all: [(String, Int64, Int64)] = []
            while try span.step() {
                if !span.isNull(1) { all.append((span.string(0) ?? "", span.int(1), span.int(2))) }
            }
            rollups.dirty = [:]
            for (type, start, end) in all {
                let first = rollups.policy.day(ofMillis: start)
                let last = rollups.policy.day(ofMillis: end) + (DayMerge.sleepTypes.contains(type) ? 1 : 0)
                rollups.dirty[type] = Set(first...last)
            }
            try setState("rollups.policy", rollups.policy.key)
            rollups.checked = true
        }
    }

    /// Recomputes the rollups of the days marked since the last flush. Call inside the write
    /// transaction, just before it commits.
    func flushRollups() throws(StoreError) {
        if !rollups.checked {
            if try state("rollups.policy") != rollups.policy.key { try rebuildRollupsInTransaction() } else { rollups.checked = true }
        }
        guard !rollups.dirty.isEmpty else { return }
        let dirty = rollups.dirty
        rollups.dirty = [:]
        var sleepDays = Set<Int64>()
        for (type, days) in dirty {
            if DayMerge.sleepTypes.contains(type) { sleepDays.formUnion(days) }
            for day in days.sorted() { try store(computeRollup(type: type, day: day), day: day, figure: type) }
        }
        for day in sleepDays.sorted() { try store(computeSleepRollup(day: day), day: day, figure: DayRollup.sleep) }
    }

    private func rebuildRollupsInTransaction() throws(StoreError) {
        let pending = rollups.dirty
        try rebuildRollups()
        for (type, days) in pending { rollups.dirty[type, default: []].formUnion(days) }
    }

    private func store(_ rollup: DayRollup?, day: Int64, figure: String) throws(StoreError) {
        if let r = rollup {
            let s = try cached("INSERT OR REPLACE INTO day_rollups(day, figure, value, count, low, high, detail) VALUES (?,?,?,?,?,?,?)")
            s.bind(1, r.day); s.bind(2, r.figure); s.bind(3, r.value); s.bind(4, r.count)
            s.bind(5, r.low); s.bind(6, r.high); s.bind(7, r.detail)
            try s.run()
        } else {
            let s = try cached("DELETE FROM day_rollups WHERE day = ? AND figure = ?")
            s.bind(1, day); s.bind(2, figure)
            try s.run()
        }
    }

    /// The rollup of `type` on `day`, computed from the samples (nil when it has none).
    func computeRollup(type: String, day: Int64) throws(StoreError) -> DayRollup? {
        let (from, to) = rollups.policy.bounds(ofDay: day)
        let samples = try daySamples(type: type, from: from, to: to)
        var count = 0, sum = 0.0, low = Double.infinity, high = -Double.infinity
        for s in samples where s.start >= from && s.start < to {
            count += 1
            sum += s.value
            low = min(low, s.value)
            high = max(high, s.value)
        }
        if DayMerge.cumulativeTypes.contains(type) {
            let total = DayMerge.cumulativeTotal(samples, from: from, to: to, priority: rollups.policy.priority)
            guard count > 0 || total != 0 else { return nil }
            return DayRollup(day: day, figure: type, value: total, count: count,
                             low: count > 0 ? low : nil, high: count > 0 ? high : nil)
        }
        guard count > 0 else { return nil }
        return DayRollup(day: day, figure: type, value: sum, count: count, low: low, high: high)
    }

    /// The sleep rollup of `day`: the nights that end on it.
    func computeSleepRollup(day: Int64) throws(StoreError) -> DayRollup? {
        let (from, to) = rollups.policy.bounds(ofDay: day)
        var samples: [DaySample] = []
        for type in DayMerge.sleepTypes.sorted() { samples += try daySamples(type: type, from: from, to: to) }
        guard let f = DayMerge.sleep(samples, dayStart: from, dayEnd: to, priority: rollups.policy.priority) else { return nil }
        let count = samples.filter { s in s.end > s.start && s.start < f.end && s.end > f.start }.count
        return DayRollup(day: day, figure: DayRollup.sleep, value: f.asleepMinutes, count: count, low: f.inBedMinutes,
                         detail: DayRollup.detail(of: f))
    }

    /// The samples of `type` that may count for `[from, to)`: starting before `to`, ending at or
    /// after `from`, and starting at most `DayMerge.lookbackMillis` before `from` (the bound keeps
    /// the read an index range).
    public func daySamples(type: String, from: Int64, to: Int64) throws(StoreError) -> [DaySample] {
        guard let id = try typeID(type, create: false) else { return [] }
        let sleep = DayMerge.sleepTypes.contains(type)
        let s = try cached("""
            SELECT s.start_ms, s.end_ms, s.value, src.name, src.device, s.metadata FROM samples AS s JOIN sources AS src ON src.id = s.source_id
            WHERE s.type = ?1 AND s.start_ms >= ?2 AND s.start_ms < ?3 AND s.end_ms >= ?4 ORDER BY s.start_ms
            """)
        s.bind(1, id); s.bind(2, from - DayMerge.lookbackMillis); s.bind(3, to); s.bind(4, from)
        defer { s.reset() }
        var out: [DaySample] = []
        var lastSource: (String, String?)?
        while try s.step() {
            let name = s.string(3) ?? "", device = s.string(4)
            let source: (String, String?)
            if let l = lastSource, l.0 == name, l.1 == device { source = l } else { source = (name, device); lastSource = source }
            var stage: SleepStage?, valueOnly = false
            if sleep {
                let metadata = Self.decodeMetadata(s.string(5))
                stage = SleepStage(type: type, metadata: metadata["sleepStage"])
                valueOnly = DaySample.isValueOnly(type: type, metadata: metadata)
            }
            out.append(DaySample(start: s.int(0), end: s.int(1), value: s.double(2), source: source.0,
                                 device: source.1.flatMap { $0.isEmpty ? nil : $0 }, stage: stage, valueOnly: valueOnly))
        }
        return out
    }

    /// The stored rollups of days `fromDay...toDay`, by day then figure.
    public func rollups(fromDay: Int64, toDay: Int64, figures: [String]? = nil) throws(StoreError) -> [DayRollup] {
        let s = try cached("SELECT day, figure, value, count, low, high, detail FROM day_rollups WHERE day BETWEEN ? AND ? ORDER BY day, figure")
        s.bind(1, fromDay); s.bind(2, toDay)
        defer { s.reset() }
        var out: [DayRollup] = []
        while try s.step() {
            let figure = s.string(1) ?? ""
            if let figures, !figures.contains(figure) { continue }
            out.append(DayRollup(day: s.int(0), figure: figure, value: s.double(2), count: Int(s.int(3)),
                                 low: s.isNull(4) ? nil : s.double(4), high: s.isNull(5) ? nil : s.double(5), detail: s.string(6)))
        }
        return out
    }

    /// Every rollup recomputed from the samples, without storing (to check the stored ones).
    func recomputedRollups() throws(StoreError) -> [DayRollup] {
        let span = try conn.prepare("SELECT name, (SELECT min(start_ms) FROM samples WHERE type = types.id), (SELECT max(end_ms) FROM samples WHERE type = types.id) FROM types")
        var out: [DayRollup] = []
        var sleepDays = Set<Int64>()
        while try span.step() {
            if span.isNull(1) { continue }
            let type = span.string(0) ?? ""
            let first = rollups.policy.day(ofMillis: span.int(1)), last = rollups.policy.day(ofMillis: span.int(2)) + 1
            if DayMerge.sleepTypes.contains(type) { sleepDays.formUnion(first...last) }
            for day in first...last { if let r = try computeRollup(type: type, day: day) { out.append(r) } }
        }
        for day in sleepDays { if let r = try computeSleepRollup(day: day) { out.append(r) } }
        return out.sorted { ($0.day, $0.figure) < ($1.day, $1.figure) }
    }
}
