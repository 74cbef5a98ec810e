import HealthSpoolCore

extension VisitReports {
    /// Per category (most entries first) and per symptom: entries, days, total and highest daily
    /// score, the worst days, each day's score and the parts of the day. Names compare without
    /// case, the first spelling seen is kept (as the daily scores do).
    static func symptomFigures(_ entries: [SymptomEntry], days: [CivilDate]) -> [SymptomCategoryFigures] {
        var categories: [String: (name: String, entries: [SymptomEntry])] = [:]
        for e in entries where !e.deleted {
            categories[e.category.lowercased(), default: (e.category, [])].entries.append(e)
        }
        return categories.values.map { c in
            var symptoms: [String: (name: String, entries: [SymptomEntry])] = [:]
            for e in c.entries { symptoms[e.symptom.lowercased(), default: (e.symptom, [])].entries.append(e) }
            let list = symptoms.values.map { scoreFigures(name: $0.name, $0.entries, days: days) }
                .sorted { ($0.entries, $1.name.lowercased()) > ($1.entries, $0.name.lowercased()) }
            return SymptomCategoryFigures(category: scoreFigures(name: c.name, c.entries, days: days), symptoms: list)
        }.sorted { ($0.category.entries, $1.category.name.lowercased()) > ($1.category.entries, $0.category.name.lowercased()) }
    }

    /// The scores of `entries` (one category's or one symptom's) over `days`.
    static func scoreFigures(name: String, _ entries: [SymptomEntry], days: [CivilDate]) -> ScoreFigures {
        guard let first = days.first?.daysSinceEpoch else {
            return ScoreFigures(name: name, entries: 0, days: 0, total: 0, highest: 0, worstDays: [], daily: [], parts: [])
        }
        var daily = [Int](repeating: 0, count: days.count)
        var parts: [PartOfDay: Int] = [:]
        for e in entries {
            let i = Int(e.day.daysSinceEpoch - first)
            if daily.indices.contains(i) { daily[i] += e.severity.weight }
            parts[e.timeOfDay, default: 0] += 1
        }
        let worst = daily.indices.filter { daily[$0] > 0 }
            .sorted { (daily[$0], -$0) > (daily[$1], -$1) }
            .prefix(3).map { DayScore(day: days[$0], score: daily[$0]) }
        return ScoreFigures(name: name, entries: entries.count, days: daily.filter { $0 > 0 }.count, total: daily.reduce(0, +),
                            highest: daily.max() ?? 0, worstDays: Array(worst), daily: daily,
                            parts: PartOfDay.allCases.compactMap { p in parts[p].map { PartCount(part: p, count: $0) } })
    }

    /// The aggravating and relieving factors named most often, and each lifestyle factor on the
    /// high-score days (the top quarter, at least one, of the days with symptom entries, by
    /// their total score; days tied with the last one count too) against the other days of the
    /// period. Nil when nothing was named or logged.
    static func factorFigures(_ entries: [SymptomEntry], lifestyle: [LifestyleEntry], days: [CivilDate]) -> FactorFigures? {
        func ranked(_ names: [String]) -> [NameCount] {
            var counts: [String: NameCount] = [:]
            for n in names { counts[n.lowercased(), default: NameCount(name: n, count: 0)].count += 1 }
            return Array(counts.values.sorted { ($0.count, $1.name.lowercased()) > ($1.count, $0.name.lowercased()) }.prefix(10))
        }
        let live = entries.filter { !$0.deleted }
        let aggravating = ranked(live.flatMap(\.aggravatedBy)), relieving = ranked(live.flatMap(\.relievedBy))
        var totals: [CivilDate: Int] = [:]
        for e in live { totals[e.day, default: 0] += e.severity.weight }
        var high = Set<CivilDate>()
        let byScore = totals.sorted { $0.value > $1.value }
        if !byScore.isEmpty {
            let cut = byScore[max(0, (byScore.count + 3) / 4 - 1)].value
            high = Set(byScore.filter { $0.value >= cut }.map(\.key))
        }
        var factorDays: [String: (name: String, days: Set<CivilDate>)] = [:]
        for l in lifestyle where !l.deleted { factorDays[l.factor.lowercased(), default: (l.factor, [])].days.insert(l.day) }
        let comparisons = factorDays.values.map { f in
            LifestyleComparison(factor: f.name, highDays: f.days.intersection(high).count, otherDays: f.days.subtracting(high).count)
        }.sorted { $0.factor.lowercased() < $1.factor.lowercased() }
        guard !aggravating.isEmpty || !relieving.isEmpty || (!high.isEmpty && !comparisons.isEmpty) else { return nil }
        return FactorFigures(aggravating: aggravating, relieving: relieving, highDays: high.count,
                             otherDays: days.count - high.count, lifestyle: high.isEmpty ? [] : comparisons)
    }
}
