import HealthSpoolCore

/// What the store keeps between a write and its commit to bring the daily rollups up to date.
struct RollupTracker {
    /// The zone and source priority rollups are computed with.
    var policy = RollupPolicy() {
        didSet { if policy.priority != oldValue.priority { ranks = [:] } }
    }
    /// Days changed by the open transaction, by type name.
    var dirty: [String: Set<Int64>] = [:]
    /// Whether the stored rollups were checked to be of `policy` on this connection.
    var checked = false
    /// Whether commits mark their days in `dirty_days` instead of computing their rollups
    /// (`SampleStore.rollupsDeferred`).
    var deferred = false
    /// The rank under `policy.priority` of each source row met, by row id: a row is one
    /// (name, version, device), ranked once per connection rather than once per day and run of
    /// samples (an export with a device string per record ranked nearly every sample).
    var ranks: [Int64: Int] = [:]

    mutating func mark(type: String, start: Int64, end: Int64) {
        let days = policy.days(type: type, start: start, end: end)
        if days.count == 1, dirty[type]?.contains(days.lowerBound) == true { return }
        dirty[type, default: []].formUnion(days)
    }
}

/// Daily rollups: per day and type the figures the day view and calendar show, recomputed from
/// the samples of every day a write touched, inside the write's transaction, or for a bulk import
/// once after it (`SampleStore+DirtyDays`; docs/formats.md, "Day totals"). A month reads about 30
/// rows per figure instead of the samples.
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

    /// Looks at the stored policy again at the next `ensureRollups()`: another connection may
    /// have rebuilt the rollups since (a connection kept open, as `StorePool`'s are).
    public func recheckRollups() { rollups.checked = false }

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
            // Every day is recomputed (or marked again, when deferred): older marks are moot.
            try conn.exec("DELETE FROM dirty_days")
            try setState("rollups.policy", rollups.policy.key)
            rollups.checked = true
        }
    }

    /// Recomputes the rollups of the days marked since the last flush, or, when deferred, marks
    /// them in `dirty_days`. Call inside the write transaction, just before it commits.
    func flushRollups() throws(StoreError) {
        if !rollups.checked {
            if try state("rollups.policy") != rollups.policy.key { try rebuildRollupsInTransaction() } else { rollups.checked = true }
        }
        guard !rollups.dirty.isEmpty else { return }
        let dirty = rollups.dirty
        rollups.dirty = [:]
        if rollups.deferred {
            try markDirty(dirty)
        } else {
            try computeAndStore(dirty)
        }
    }

    /// Recomputes and stores the rollups of `dirty`'s days (and the sleep rollup of the days of
    /// a sleep type).
    func computeAndStore(_ dirty: [String: Set<Int64>]) throws(StoreError) {
        for (figure, rollup) in try computeRollups(Self.figures(marked: dirty)) {
            try store(rollup, day: figure.day, figure: figure.figure)
        }
    }

    private func rebuildRollupsInTransaction() throws(StoreError) {
        let pending = rollups.dirty
        try rebuildRollups()
        for (type, days) in pending { rollups.dirty[type, default: []].formUnion(days) }
    }

    func store(_ rollup: DayRollup?, day: Int64, figure: String) throws(StoreError) {
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
        guard DayMerge.cumulativeTypes.contains(type) else { return try readingsRollup(type: type, day: day, from: from, to: to) }
        let (samples, ranks) = try rankedDaySamples(type: type, from: from, to: to)
        var count = 0, low = Double.infinity, high = -Double.infinity
        for s in samples where s.start >= from && s.start < to {
            count += 1
            low = min(low, s.value)
            high = max(high, s.value)
        }
        let total = DayMerge.cumulativeTotal(samples, from: from, to: to, ranks: ranks)
        guard count > 0 || total != 0 else { return nil }
        return DayRollup(day: day, figure: type, value: total, count: count,
                         low: count > 0 ? low : nil, high: count > 0 ? high : nil)
    }

    /// The rollup of a type that is not merged: count, sum, lowest and highest of the readings
    /// that start on the day, added up by SQLite (no sample is read into Swift).
    private func readingsRollup(type: String, day: Int64, from: Int64, to: Int64) throws(StoreError) -> DayRollup? {
        guard let id = try typeID(type, create: false) else { return nil }
        let s = try cached("""
            SELECT count(*), sum(value), min(value), max(value) FROM samples
            WHERE type = ?1 AND start_ms >= ?2 AND start_ms < ?3 AND end_ms >= ?2 AND deleted = 0
            """)
        s.bind(1, id); s.bind(2, from); s.bind(3, to)
        defer { s.reset() }
        guard try s.step(), s.int(0) > 0 else { return nil }
        return DayRollup(day: day, figure: type, value: s.double(1), count: Int(s.int(0)), low: s.double(2), high: s.double(3))
    }

    /// The samples of `type` that may count for `[from, to)` (as `daySamples`), and the rank of
    /// each of their sources: the best rank of its rows, each row ranked once per connection.
    private func rankedDaySamples(type: String, from: Int64, to: Int64) throws(StoreError) -> ([DaySample], [String: Int]) {
        guard let id = try typeID(type, create: false) else { return ([], [:]) }
        let s = try cached("""
            SELECT start_ms, end_ms, value, source_id FROM samples
            WHERE type = ?1 AND start_ms >= ?2 AND start_ms < ?3 AND end_ms >= ?4 AND deleted = 0 ORDER BY start_ms
            """)
        s.bind(1, id); s.bind(2, from - DayMerge.lookbackMillis); s.bind(3, to); s.bind(4, from)
        defer { s.reset() }
        var out: [DaySample] = []
        var ranks: [String: Int] = [:]
        var lastID: Int64 = -1
        var source = SampleSource(name: "")
        while try s.step() {
            let sourceID = s.int(3)
            if sourceID != lastID {
                lastID = sourceID
                source = try self.source(id: sourceID)
                let rank: Int
                if let known = rollups.ranks[sourceID] {
                    rank = known
                } else {
                    rank = rollups.policy.priority.rank(name: source.name, device: source.device)
                    // Bounded like `sourcesByID`: an export could carry a new device per record.
                    if rollups.ranks.count > 10_000 { rollups.ranks.removeAll() }
                    rollups.ranks[sourceID] = rank
                }
                ranks[source.name] = min(ranks[source.name] ?? rank, rank)
            }
            out.append(DaySample(start: s.int(0), end: s.int(1), value: s.double(2), source: source.name, device: source.device))
        }
        return (out, ranks)
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
            WHERE s.type = ?1 AND s.start_ms >= ?2 AND s.start_ms < ?3 AND s.end_ms >= ?4 AND s.deleted = 0 ORDER BY s.start_ms
            """)
        s.bind(1, id); s.bind(2, from - DayMerge.lookbackMillis); s.bind(3, to); s.bind(4, from)
        defer { s.reset() }
        var out: [DaySample] = []
        var lastSource: (String, String?)?
        while try s.step() {
            let name = s.string(3) ?? "", device = s.string(4)
            let source: (String, String?)
            if let l = lastSource, l.0 == name, l.1 == device { source = l } else { source = (name, device); lastSource = source }
            var stage: SleepStage?, valueOnly = false, nightTotal = false
            if sleep {
                let metadata = Self.decodeMetadata(s.string(5))
                stage = SleepStage(type: type, metadata: metadata["sleepStage"])
                valueOnly = DaySample.isValueOnly(type: type, metadata: metadata)
                nightTotal = DaySample.isNightTotal(type: type, metadata: metadata)
            }
            out.append(DaySample(start: s.int(0), end: s.int(1), value: s.double(2), source: source.0,
                                 device: source.1.flatMap { $0.isEmpty ? nil : $0 }, stage: stage, valueOnly: valueOnly,
                                 nightTotal: nightTotal))
        }
        return out
    }

    /// The rollups of days `fromDay...toDay`, by day then figure: the stored ones, and for a day
    /// a deferred write marked and no one computed yet, its figures computed now (never stale).
    public func rollups(fromDay: Int64, toDay: Int64, figures: [String]? = nil) throws(StoreError) -> [DayRollup] {
        try snapshot { () throws(StoreError) -> [DayRollup] in
            let stored = try storedRollups(fromDay: fromDay, toDay: toDay, figures: figures)
            let dirty = try dirtyDays(fromDay: fromDay, toDay: toDay)
            guard !dirty.isEmpty else { return stored }
            return try freshened(stored, dirty: dirty, figures: figures)
        }
    }

    /// The rollups in `day_rollups` of days `fromDay...toDay`, by day then figure.
    func storedRollups(fromDay: Int64, toDay: Int64, figures: [String]?) throws(StoreError) -> [DayRollup] {
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
