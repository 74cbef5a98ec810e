/// The part of the day a symptom or lifestyle factor happened in (requirements 3 and 11).
public enum PartOfDay: String, CaseIterable, Sendable, CustomStringConvertible {
    case morning, afternoon, evening, night

    public var description: String { rawValue }

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

    /// A typical local hour for this part of the day (for an entry logged with `--when` on
    /// another day than today and no exact time): 08:00, 14:00, 19:00, 23:00.
    public var typicalHour: Int {
        switch self {
        case .morning: 8
        case .afternoon: 14
        case .evening: 19
        case .night: 23
        }
    }

    /// Parses a name, any case.
    public init?(parsing text: String) {
        self.init(rawValue: text.lowercased().trimmingSpaces)
    }
}
