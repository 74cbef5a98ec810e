/// How bad a symptom was, with the weight it adds to a daily score (requirements 4, 8, 9).
public enum Severity: Int, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    case mild = 1
    case moderate = 2
    case severe = 3
    case debilitating = 4

    /// The score weight: mild 1, moderate 2, severe 3, debilitating 4.
    public var weight: Int { rawValue }

    public var description: String {
        switch self {
        case .mild: "mild"
        case .moderate: "moderate"
        case .severe: "severe"
        case .debilitating: "debilitating"
        }
    }

    /// Parses a name (`moderate`, any case) or a weight (`2`).
    public init?(parsing text: String) {
        let t = text.lowercased().trimmingSpaces
        if let n = Int(t), let s = Severity(rawValue: n) { self = s; return }
        guard let s = Severity.allCases.first(where: { $0.description == t }) else { return nil }
        self = s
    }

    /// A HealthKit severity (`HKCategoryValueSeverity`: 0 unspecified, 1 not present, 2 mild,
    /// 3 moderate, 4 severe) as a journal severity; nil for "not present" (no symptom to log).
    /// An unspecified severity counts as mild: the symptom was there, its strength unknown.
    public init?(healthKit value: Double) {
        switch Int(value.rounded()) {
        case 1: return nil
        case 3: self = .moderate
        case 4...: self = .severe
        default: self = .mild
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
}
