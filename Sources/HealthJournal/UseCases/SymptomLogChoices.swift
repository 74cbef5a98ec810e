import HealthSpoolCore

/// What the web's second step of logging a symptom offers as suggestions: the journal's
/// categories and the user's relieving and aggravating factors.
public struct SymptomLogChoices: Sendable {
    public var categories: [String]
    public var relieving: [String]
    public var aggravating: [String]
}

extension HealthJournal {
    /// The suggestions for the details of a new symptom entry.
    public func logChoices() throws -> SymptomLogChoices {
        let factors = try factorLists()
        return SymptomLogChoices(categories: try categories().map(\.name), relieving: factors.relieving, aggravating: factors.aggravating)
    }
}
