import HealthSpoolCore
import HealthSpoolStore

extension JournalStore {
    /// Whether a day's scores are stored (the day was complete when they were computed).
    public func isScored(_ day: CivilDate) throws(StoreError) -> Bool {
        let q = try conn.prepare("SELECT 1 FROM symptom_scored_days WHERE day = ?")
        q.bind(1, day.daysSinceEpoch)
        return try q.step()
    }

    /// The stored scores of a day, sorted by scope and name; nil when the day was never scored.
    public func storedScores(_ day: CivilDate) throws(StoreError) -> [SymptomScore]? {
        guard try isScored(day) else { return nil }
        return try scoreRows(day).map(\.score)
    }

    private func scoreRows(_ day: CivilDate) throws(StoreError) -> [(score: SymptomScore, version: Int, start: Int64)] {
        let q = try conn.prepare("""
            SELECT scope, name, score, entries, version, start_ms FROM symptom_scores WHERE day = ?
            ORDER BY scope, name COLLATE NOCASE
            """)
        q.bind(1, day.daysSinceEpoch)
        var out: [(SymptomScore, Int, Int64)] = []
        while try q.step() {
            let s = SymptomScore(day: day, scope: ScoreScope(rawValue: q.string(0) ?? "") ?? .category, name: q.string(1) ?? "",
                                 score: Int(q.int(2)), entries: Int(q.int(3)))
            out.append((s, Int(q.int(4)), q.int(5)))
        }
        return out.map { (score: $0.0, version: $0.1, start: $0.2) }
    }

    /// The names that have a stored score on `day` (so a score that drops to 0 is stored and
    /// sent as 0 rather than left at its old value).
    public func scoredNames(_ day: CivilDate) throws(StoreError) -> (categories: [String], symptoms: [String]) {
        let rows = try scoreRows(day)
        return (rows.filter { $0.score.scope == .category }.map(\.score.name), rows.filter { $0.score.scope == .symptom }.map(\.score.name))
    }

    /// Stores a day's scores and marks the day scored. A score that is new or changed gets the
    /// next version and, when `send` says so, is put in line for the gateway (`record` builds
    /// it). Returns the scores that changed. Call inside a transaction.
    @discardableResult
    public func saveScores(_ day: CivilDate, _ scores: [SymptomScore], now: Timestamp, send: Bool,
                           record: (SymptomScore, Int) -> JournalRecord) throws(StoreError) -> [SymptomScore] {
        var stored: [String: (score: SymptomScore, version: Int, start: Int64)] = [:]
        for r in try scoreRows(day) { stored[r.score.scope.rawValue + "\u{1F}" + r.score.name.lowercased()] = r }
        let put = try conn.prepare("""
            INSERT OR REPLACE INTO symptom_scores(day, scope, name, score, entries, version, start_ms) VALUES (?,?,?,?,?,?,?)
            """)
        var changed: [SymptomScore] = []
        for s in scores {
            let old = stored[s.scope.rawValue + "\u{1F}" + s.name.lowercased()]
            if let old, old.score.score == s.score, old.score.entries == s.entries { continue }
            let version = (old?.version ?? 0) + 1
            let r = record(s, version)
            put.bind(1, day.daysSinceEpoch); put.bind(2, s.scope.rawValue); put.bind(3, s.name)
            put.bind(4, s.score); put.bind(5, s.entries); put.bind(6, version); put.bind(7, r.start.millis)
            try put.run()
            if send { try queue(r, previousStart: old?.start, now: now) }
            changed.append(s)
        }
        let mark = try conn.prepare("INSERT OR REPLACE INTO symptom_scored_days(day, computed_ms) VALUES (?, ?)")
        mark.bind(1, day.daysSinceEpoch); mark.bind(2, now.millis)
        try mark.run()
        return changed
    }
}
