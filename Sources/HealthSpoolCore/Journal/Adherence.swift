/// How a dose that came due was taken.
public enum DoseTiming: String, Sendable, CaseIterable {
    /// A dose logged within an hour of the time it was due, before or after.
    case onTime = "on_time"
    /// A dose logged more than an hour after, before the next dose's hour.
    case late
    /// No dose logged for it.
    case missed
}

/// Doses due and how they were taken, for one medication or one week.
public struct AdherenceCount: Hashable, Sendable {
    public var onTime = 0
    public var late = 0
    public var missed = 0

    public init(onTime: Int = 0, late: Int = 0, missed: Int = 0) {
        self.onTime = onTime
        self.late = late
        self.missed = missed
    }

    /// Doses that came due.
    public var due: Int { onTime + late + missed }

    mutating func add(_ t: DoseTiming) {
        switch t {
        case .onTime: onTime += 1
        case .late: late += 1
        case .missed: missed += 1
        }
    }

    public static func + (a: AdherenceCount, b: AdherenceCount) -> AdherenceCount {
        AdherenceCount(onTime: a.onTime + b.onTime, late: a.late + b.late, missed: a.missed + b.missed)
    }
}

/// The adherence rule, pure: doses due by a medication's reminders against the doses logged.
///
/// Each due time, in order, takes the earliest dose not yet counted that was logged within an
/// hour of it (on time); failing that, the earliest one logged after that hour and before the
/// hour of the next due time (late; for the last due time, up to `through`); failing both, it
/// was missed. A dose counts for one due time at most; a dose logged more than an hour before
/// its due time counts as early for none (an extra dose). A due time whose hour has not passed
/// at `through` and has no dose yet is not counted: it may still be taken on time.
public enum Adherence {
    /// How far from its due time a dose counts as on time, either way: one hour.
    public static let windowMillis: Int64 = 3_600_000

    /// One due time and how it was taken.
    public struct DueDose: Hashable, Sendable {
        public var due: Timestamp
        public var timing: DoseTiming
        /// The dose counted for it (nil when missed).
        public var taken: Timestamp?
    }

    /// The due times (any order, repeats counted once) matched against the doses taken (any
    /// order); `through` is the end of what is looked at (the report's end, or now).
    public static func match(due: [Timestamp], taken: [Timestamp], through: Timestamp) -> [DueDose] {
        var times: [Timestamp] = []
        for t in due.sorted() where times.last?.millis != t.millis { times.append(t) }
        let doses = taken.sorted()
        var used = [Bool](repeating: false, count: doses.count)
        var out: [DueDose] = []
        for (i, d) in times.enumerated() {
            let onTime = (d.millis - windowMillis)...(d.millis + windowMillis)
            let lateEnd = i + 1 < times.count ? times[i + 1].millis - windowMillis : through.millis
            func first(_ accept: (Int64) -> Bool) -> Int? {
                doses.indices.first { !used[$0] && accept(doses[$0].millis) }
            }
            if let k = first({ onTime.contains($0) }) {
                used[k] = true
                out.append(DueDose(due: d, timing: .onTime, taken: doses[k]))
            } else if let k = first({ $0 > onTime.upperBound && $0 < lateEnd }) {
                used[k] = true
                out.append(DueDose(due: d, timing: .late, taken: doses[k]))
            } else if d.millis + windowMillis <= through.millis {
                out.append(DueDose(due: d, timing: .missed, taken: nil))
            }
        }
        return out
    }

    /// The counts of `doses`.
    public static func count(_ doses: [DueDose]) -> AdherenceCount {
        var c = AdherenceCount()
        for d in doses { c.add(d.timing) }
        return c
    }

    /// The counts of `doses` by week (weeks start on Monday, by each due time's local date),
    /// oldest first.
    public static func byWeek(_ doses: [DueDose]) -> [(week: CivilDate, count: AdherenceCount)] {
        var weeks: [Int64: AdherenceCount] = [:]
        for d in doses { weeks[weekStart(of: d.due.localDate).daysSinceEpoch, default: AdherenceCount()].add(d.timing) }
        return weeks.keys.sorted().map { (CivilDate(daysSinceEpoch: $0), weeks[$0]!) }
    }

    /// The Monday of `day`'s week.
    public static func weekStart(of day: CivilDate) -> CivilDate {
        CivilDate(daysSinceEpoch: day.daysSinceEpoch - Int64((day.weekday + 6) % 7))
    }
}
