/// What a daily score is about: one category, or one symptom.
public enum ScoreScope: String, Sendable, CaseIterable {
    case category, symptom
}

/// A daily symptom score (requirements 8 and 9): the sum of the severity weights of the
/// entries of one local day, for one category or one symptom. 0 means no entries.
public struct SymptomScore: Sendable, Equatable {
    public var day: CivilDate
    public var scope: ScoreScope
    /// The category's or the symptom's name.
    public var name: String
    public var score: Int
    /// How many entries it sums.
    public var entries: Int

    public init(day: CivilDate, scope: ScoreScope, name: String, score: Int, entries: Int) {
        self.day = day
        self.scope = scope
        self.name = name
        self.score = score
        self.entries = entries
    }

    /// The stable id of this day's score for this category or symptom: the same each time the
    /// day is computed again, so a recomputed score is sent as a new version of the same record.
    public var id: SampleID { Self.id(day: day, scope: scope, name: name) }

    public static func id(day: CivilDate, scope: ScoreScope, name: String) -> SampleID {
        SampleIdentity.id(type: JournalType.symptomScore, start: day.daysSinceEpoch, end: 0, value: nil,
                          unit: scope.rawValue, sourceName: name.lowercased())
    }
}

/// The daily score rule, as a pure function of the entries (no clock, no store).
public enum SymptomScoring {
    /// The scores of `day`: per category and per symptom, the sum of the severity weights of
    /// the entries whose local day (in the offset each was recorded with) is `day`; deleted
    /// entries do not count. Entries of other days are ignored, so a caller may pass more.
    /// Names compare without case; the first spelling seen is kept. Categories in `categories`
    /// and symptoms in `symptoms` without entries score 0 (requirement 8: "0 indicates no
    /// entries"). Sorted by scope, then name.
    public static func scores(for day: CivilDate, entries: [SymptomEntry], categories: [String] = [],
                              symptoms: [String] = []) -> [SymptomScore] {
        var sums: [ScoreScope: [String: SymptomScore]] = [.category: [:], .symptom: [:]]
        func add(_ scope: ScoreScope, _ name: String, weight: Int, count: Int) {
            let key = name.lowercased()
            var s = sums[scope]![key] ?? SymptomScore(day: day, scope: scope, name: name, score: 0, entries: 0)
            s.score += weight
            s.entries += count
            sums[scope]![key] = s
        }
        for c in categories { add(.category, c, weight: 0, count: 0) }
        for s in symptoms { add(.symptom, s, weight: 0, count: 0) }
        for e in entries where !e.deleted && e.day == day {
            add(.category, e.category, weight: e.severity.weight, count: 1)
            add(.symptom, e.symptom, weight: e.severity.weight, count: 1)
        }
        return ScoreScope.allCases.flatMap { scope in
            sums[scope]!.values.sorted { $0.name.lowercased() < $1.name.lowercased() }
        }
    }

    /// Whether `day` has ended in `zone` at `now`, so its scores are final and may be stored
    /// and sent (today's are shown as "so far").
    public static func isComplete(_ day: CivilDate, at now: Int64, in zone: some OffsetRules) -> Bool {
        now >= LocalDay.bounds(of: day, in: zone).upperBound
    }
}
