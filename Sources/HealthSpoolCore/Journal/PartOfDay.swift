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

    /// Parses a name, any case.
    public init?(parsing text: String) {
        self.init(rawValue: text.lowercased().trimmingSpaces)
    }
}
