/// The part of the day a symptom or lifestyle factor happened in (requirements 3 and 11).
public enum PartOfDay: String, CaseIterable, Sendable, CustomStringConvertible {
    case morning, afternoon, evening, night

    public var description: String { rawValue }

    /// "Morning", as a list shows an entry logged for the part of the day.
    public var title: String {
        switch self {
        case .morning: "Morning"
        case .afternoon: "Afternoon"
        case .evening: "Evening"
        case .night: "Night"
        }
    }

    /// "in the morning", as a sentence says it ("Saved: headache, moderate, in the morning.").
    public var phrase: String { self == .night ? "at night" : "in the " + rawValue }

    /// When an entry happened, as the person gave it: the part of the day they chose ("Morning")
    /// when `meant`, else the clock time of `at` in its own offset ("18:07").
    public static func shown(_ at: Timestamp, part: PartOfDay, meant: Bool) -> String {
        meant ? part.title : String(at.iso8601Local.dropFirst(11).prefix(5))
    }

    /// The part of the day a local hour falls in: morning 05–12, afternoon 12–17,
    /// evening 17–21, night 21–05.
    public init(hour: Int) {
        switch hour {
        case 5..<12: self = .morning
        case 12..<17: self = .afternoon
        case 17..<21: self = .evening
        default: self = .night
        }
    }

    /// The part of the day of a timestamp, in its recorded offset.
    public init(of t: Timestamp) {
        let local = t.millis + Int64(t.utcOffsetSeconds) * 1000
        self.init(hour: Int(Timestamp.floorDivide(local, 86_400_000).1 / 3_600_000))
    }

    /// Where the part begins and how long it lasts, in minutes after local midnight (night runs
    /// past midnight: 21:00 for 8 hours).
    public var span: (start: Int, length: Int) {
        switch self {
        case .morning: (5 * 60, 7 * 60)
        case .afternoon: (12 * 60, 5 * 60)
        case .evening: (17 * 60, 4 * 60)
        case .night: (21 * 60, 8 * 60)
        }
    }

    /// The time a person means when they say a symptom happened in this part of the day, choosing
    /// it at `now` (issue 40): the middle of its latest occurrence that has begun (morning 08:30,
    /// afternoon 14:30, evening 19:00, night 01:00), or `now` when that middle is still to come.
    /// "Morning" chosen at 18:07 is 08:30 today, at 06:00 it is 06:00, at 03:00 yesterday's 08:30;
    /// "night" chosen at 18:07 is 01:00 today (last night), at 23:00 it is 23:00.
    ///
    /// The middle rather than the last moment: it is the same whenever the person logs (an
    /// entry logged at noon and one logged at 18:00 for "this morning" land on the same time), it
    /// is never further than half the part from what they meant, and the day's list keeps a
    /// morning headache among the morning's entries instead of just before noon.
    public func meantTime(now: Timestamp, zone: some OffsetRules) -> Timestamp {
        let today = LocalDay.date(of: now.millis, in: zone)
        func at(_ day: Int64, minutes: Int) -> Timestamp {
            LocalDay.timestamp(CivilDate(daysSinceEpoch: day + Int64(minutes / 1440)), hour: minutes % 1440 / 60, minute: minutes % 60, in: zone)
        }
        var startDay = today.daysSinceEpoch
        if at(startDay, minutes: span.start).millis > now.millis { startDay -= 1 }
        let middle = at(startDay, minutes: span.start + span.length / 2)
        return middle.millis < now.millis ? middle : now
    }

    /// The time that stands for this part of the day on the local day `day` (moving an entry to
    /// another part of its own day): the part's middle, night's being 01:00 of `day` (its early
    /// hours); never after `now`.
    public func meantTime(on day: CivilDate, now: Timestamp, zone: some OffsetRules) -> Timestamp {
        let minutes = (span.start + span.length / 2) % 1440
        let t = LocalDay.timestamp(day, hour: minutes / 60, minute: minutes % 60, in: zone)
        return t.millis < now.millis ? t : now
    }

    /// Parses a name, any case.
    public init?(parsing text: String) {
        self.init(rawValue: text.lowercased().trimmingSpaces)
    }
}
