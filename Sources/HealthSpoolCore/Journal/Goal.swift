/// A task or goal (R16): checked off by hand, or — on a measured type — by itself when the
/// day's imported samples reach the target.
public struct Goal: Hashable, Sendable {
    /// Stable id (the store's row id).
    public var id: Int64
    public var name: String
    /// How it repeats; nil for a one-off task.
    public var rule: RecurrenceRule?
    /// The first day it applies (a repeating goal's series start).
    public var start: CivilDate
    /// A measured goal: the registry type whose day total is compared with `target`.
    public var type: String?
    public var target: Double?

    public init(id: Int64 = 0, name: String, rule: RecurrenceRule? = nil, start: CivilDate, type: String? = nil,
                target: Double? = nil) {
        self.id = id
        self.name = name
        self.rule = rule
        self.start = start
        self.type = type
        self.target = target
    }

    /// Whether the goal applies on `day`: a one-off task on every day until it is done, a
    /// repeating one on the days its rule gives.
    public func applies(on day: CivilDate) -> Bool {
        guard let rule else { return day >= start }
        return rule.matches(day, start: rule.firstDate(onOrAfter: start) ?? start)
    }

    /// Whether a measured goal is met by a day total of `total` (in the type's unit).
    public func isMet(byTotal total: Double) -> Bool {
        guard let target else { return false }
        return total >= target
    }
}
