import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Deferred rollups: during a bulk import each commit marks the days it touched in `dirty_days`,
/// in the samples' own transaction, and their rollups are computed once, after the import's last
/// commit (`settleRollups`), instead of at every commit. A reader computes a marked day's
/// figures itself until then, so no one sees a stale rollup, even after a crash between the
/// samples' commit and the computation (docs/formats.md, "Day totals").
extension SampleStore {
    /// Whether commits mark the days they touched instead of computing their rollups. Set it for
    /// a bulk write, then call `settleRollups` once it is committed.
    public var rollupsDeferred: Bool {
        get { rollups.deferred }
        set { rollups.deferred = newValue }
    }

    /// Marks `dirty`'s days in `dirty_days` (inside the write transaction).
    func markDirty(_ dirty: [String: Set<Int64>]) throws(StoreError) {
        let s = try cached("INSERT OR IGNORE INTO dirty_days(type, day) VALUES (?, ?)")
        for (type, days) in dirty {
            for day in days {
                s.bind(1, type); s.bind(2, day)
                try s.run()
            }
        }
    }

    /// The marks of days `fromDay...toDay`, by type.
    func dirtyDays(fromDay: Int64, toDay: Int64, limit: Int = -1) throws(StoreError) -> [String: Set<Int64>] {
        let s = try cached("SELECT type, day FROM dirty_days WHERE day BETWEEN ? AND ? LIMIT ?")
        s.bind(1, fromDay); s.bind(2, toDay); s.bind(3, Int64(limit))
        defer { s.reset() }
        var out: [String: Set<Int64>] = [:]
        while try s.step() { out[s.string(0) ?? "", default: []].insert(s.int(1)) }
        return out
    }

    /// `stored` with the figures of `dirty`'s days computed from the samples instead.
    func freshened(_ stored: [DayRollup], dirty: [String: Set<Int64>], figures: [String]?) throws(StoreError) -> [DayRollup] {
        var stale = Set<DayFigure>()
        var fresh: [DayRollup] = []
        var sleepDays = Set<Int64>()
        for (type, days) in dirty {
            if DayMerge.sleepTypes.contains(type) { sleepDays.formUnion(days) }
            guard figures?.contains(type) ?? true else { continue }
            for day in days {
                stale.insert(DayFigure(day: day, figure: type))
                if let r = try computeRollup(type: type, day: day) { fresh.append(r) }
            }
        }
        if figures?.contains(DayRollup.sleep) ?? true {
            for day in sleepDays {
                stale.insert(DayFigure(day: day, figure: DayRollup.sleep))
                if let r = try computeSleepRollup(day: day) { fresh.append(r) }
            }
        }
        return (stored.filter { !stale.contains(DayFigure(day: $0.day, figure: $0.figure)) } + fresh)
            .sorted { ($0.day, $0.figure) < ($1.day, $1.figure) }
    }

    /// Computes and stores the rollups of every marked day and clears the marks, `chunk` marks
    /// per transaction (other writers get the lock in between). Returns how many it settled.
    ///
    /// With `reader` (another connection to the same store), the reading and computing of each
    /// chunk's days is split between this connection and the reader, used by a thread of its own
    /// meanwhile: a first import marks thousands of days, and on two cores this halves the time
    /// it spends after its last commit. The rollups are written here either way.
    @discardableResult
    public func settleRollups(alongside reader: SampleStore? = nil, chunk: Int = 512) throws(StoreError) -> Int {
        try ensureRollups()
        reader?.rollupPolicy = rollupPolicy
        var settled = 0
        while true {
            let n = try inTransaction { () throws(StoreError) -> Int in
                let marks = try dirtyDays(fromDay: .min, toDay: .max, limit: chunk)
                let work = Self.figures(marked: marks)
                let computed: [(DayFigure, DayRollup?)]
                if let reader {
                    // Alternate figures between the two sides: neighbouring days cost alike.
                    let other = RollupThread(reader: reader, work: stride(from: 1, to: work.count, by: 2).map { work[$0] })
                    other.start()
                    let here = Result { () throws(StoreError) in try computeRollups(stride(from: 0, to: work.count, by: 2).map { work[$0] }) }
                    let there = other.join()
                    computed = try here.get() + there.get()
                } else {
                    computed = try computeRollups(work)
                }
                for (figure, rollup) in computed { try store(rollup, day: figure.day, figure: figure.figure) }
                let clear = try cached("DELETE FROM dirty_days WHERE type = ? AND day = ?")
                var n = 0
                for (type, days) in marks {
                    for day in days {
                        clear.bind(1, type); clear.bind(2, day)
                        try clear.run()
                        n += 1
                    }
                }
                return n
            }
            settled += n
            if n < chunk { return settled }
        }
    }
}

extension SampleStore {
    /// How many (type, day) marks wait to be settled.
    public func dirtyDayCount() throws(StoreError) -> Int {
        let s = try cached("SELECT count(*) FROM dirty_days")
        defer { s.reset() }
        return try s.step() ? Int(s.int(0)) : 0
    }

    /// The figures `dirty`'s marks make stale: each marked type's days, and the night figure of
    /// the days a sleep type marked.
    static func figures(marked dirty: [String: Set<Int64>]) -> [DayFigure] {
        var work: [DayFigure] = []
        var sleepDays = Set<Int64>()
        for (type, days) in dirty {
            if DayMerge.sleepTypes.contains(type) { sleepDays.formUnion(days) }
            for day in days.sorted() { work.append(DayFigure(day: day, figure: type)) }
        }
        for day in sleepDays.sorted() { work.append(DayFigure(day: day, figure: DayRollup.sleep)) }
        return work
    }

    /// The rollups of `work`'s figures and days, computed from the samples.
    func computeRollups(_ work: [DayFigure]) throws(StoreError) -> [(DayFigure, DayRollup?)] {
        var out: [(DayFigure, DayRollup?)] = []
        out.reserveCapacity(work.count)
        for w in work {
            let r = w.figure == DayRollup.sleep ? try computeSleepRollup(day: w.day) : try computeRollup(type: w.figure, day: w.day)
            out.append((w, r))
        }
        return out
    }
}

/// Computes rollups on another connection, on a thread of its own; `join` waits and gives the
/// result. Without a thread (none could be made) `join` computes them in line.
final class RollupThread: @unchecked Sendable {
    // @unchecked: `reader`, `work` and `result` are touched by the new thread only between
    // `pthread_create` and `pthread_join`, and by the creating thread only before and after.
    private let reader: SampleStore
    private let work: [DayFigure]
    private var result: Result<[(DayFigure, DayRollup?)], StoreError>?
    private var thread: pthread_t?

    init(reader: SampleStore, work: [DayFigure]) {
        self.reader = reader
        self.work = work
    }

    func start() {
        var t = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        if pthread_create(&t, nil, { raw in
            Unmanaged<RollupThread>.fromOpaque(raw!).takeRetainedValue().compute()
            return nil
        }, context) == 0 {
            thread = t
        } else {
            Unmanaged<RollupThread>.fromOpaque(context).release()
        }
    }

    private func compute() {
        let reader = self.reader, work = self.work
        result = Result { () throws(StoreError) in
            try reader.snapshot { () throws(StoreError) in try reader.computeRollups(work) }
        }
    }

    func join() -> Result<[(DayFigure, DayRollup?)], StoreError> {
        if let thread { pthread_join(thread, nil) }
        if result == nil { compute() }
        return result!
    }
}

/// A figure of a day, as a set member.
struct DayFigure: Hashable {
    var day: Int64
    var figure: String
}
