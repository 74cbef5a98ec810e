/// A level, for a lifestyle factor measured without an amount (stress: high).
public enum LifestyleLevel: String, CaseIterable, Sendable, CustomStringConvertible {
    case none, low, moderate, high

    public var description: String { rawValue }
    /// The level as a number for the gateway: none 0, low 1, moderate 2, high 3.
    public var number: Int { Self.allCases.firstIndex(of: self)! }

    public init?(parsing text: String) { self.init(rawValue: text.lowercased().trimmingSpaces) }
}

/// How much of a lifestyle factor: an exact amount with its unit, or a level (requirement 12).
public enum LifestyleMeasure: Sendable, Equatable, CustomStringConvertible {
    case amount(Double, unit: String)
    case level(LifestyleLevel)

    public var description: String {
        switch self {
        case let .amount(v, unit): SampleIdentity.canonicalNumber(v) + (unit.isEmpty ? "" : " " + unit)
        case let .level(l): "level " + l.description
        }
    }
}

/// One logged lifestyle factor (requirements 10–12): exercise, diet, water, stress, caffeine,
/// sleep or any factor the user names, with the part of the day and a measure.
public struct LifestyleEntry: Sendable, Equatable {
    public var id: SampleID
    public var factor: String
    public var at: Timestamp
    public var timeOfDay: PartOfDay
    public var measure: LifestyleMeasure?
    public var note: String?
    public var version: Int
    public var deleted: Bool
    /// Whether `at` stands for the part of the day the person chose (`PartOfDay.meantTime`), not a
    /// time they gave: shown as the part ("Morning"), not as a clock time.
    public var partMeant: Bool

    /// The factors offered before the user made any (requirement 10's examples).
    public static let suggested = ["exercise", "diet", "water", "stress", "caffeine", "sleep"]

    public init(id: SampleID, factor: String, at: Timestamp, timeOfDay: PartOfDay? = nil, measure: LifestyleMeasure? = nil,
                note: String? = nil, version: Int = 1, deleted: Bool = false, partMeant: Bool = false) {
        self.id = id
        self.factor = factor
        self.at = at
        self.timeOfDay = timeOfDay ?? PartOfDay(of: at)
        self.measure = measure
        self.note = note
        self.version = version
        self.deleted = deleted
        self.partMeant = partMeant
    }

    /// The local day the entry counts for.
    public var day: CivilDate { at.localDate }

    /// When it happened as the person gave it: "Morning" or "18:07" (`PartOfDay.shown`).
    public var shownTime: String { PartOfDay.shown(at, part: timeOfDay, meant: partMeant) }
}
