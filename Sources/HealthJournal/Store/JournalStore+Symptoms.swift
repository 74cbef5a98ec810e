import HealthSpoolCore
import HealthSpoolStore

/// A category of symptoms and the symptoms in it.
public struct SymptomCategory: Sendable, Equatable {
    public var name: String
    public var symptoms: [String]
    public init(name: String, symptoms: [String]) {
        self.name = name
        self.symptoms = symptoms
    }
}

/// The symptom entries, their categories, the factor lists (what helped or made it worse, and
/// the lifestyle factors), and the daily symptom scores. An entry, its day's scores and the
/// records that put them in line for the gateway are written in one transaction
/// (`transaction`, `queue`).
///
/// Reads by day go through the `*_day` indexes: a day's entries, never the samples.
extension JournalStore {
    // MARK: Categories, symptoms, factor lists

    /// The stored spelling of a category, created when new.
    @discardableResult
    public func category(named name: String, now: Timestamp) throws(StoreError) -> (id: Int64, name: String) {
        let add = try conn.prepare("INSERT OR IGNORE INTO journal_categories(name, created_ms) VALUES (?, ?)")
        add.bind(1, name); add.bind(2, now.millis)
        try add.run()
        let find = try conn.prepare("SELECT id, name FROM journal_categories WHERE name = ?")
        find.bind(1, name)
        _ = try find.step()
        return (find.int(0), find.string(1) ?? name)
    }

    /// A symptom's stored spelling and category; nil when the user never logged it.
    public func symptom(named name: String) throws(StoreError) -> (name: String, category: String)? {
        let find = try conn.prepare("""
            SELECT s.name, c.name FROM journal_symptoms s JOIN journal_categories c ON c.id = s.category_id WHERE s.name = ?
            """)
        find.bind(1, name)
        guard try find.step() else { return nil }
        return (find.string(0) ?? name, find.string(1) ?? SymptomEntry.defaultCategory)
    }

    /// The symptom `name`, created when new in `category` (or "All Symptoms"); an existing
    /// symptom moves to `category` when one is given. Returns the stored spellings and whether
    /// the symptom moved from another category (named).
    public func symptom(named name: String, category: String?, now: Timestamp) throws(StoreError)
        -> (name: String, category: String, movedFrom: String?) {
        if let existing = try symptom(named: name) {
            guard let category, category.lowercased() != existing.category.lowercased() else { return (existing.name, existing.category, nil) }
            let c = try self.category(named: category, now: now)
            let move = try conn.prepare("UPDATE journal_symptoms SET category_id = ? WHERE name = ?")
            move.bind(1, c.id); move.bind(2, name)
            try move.run()
            return (existing.name, c.name, existing.category)
        }
        let c = try self.category(named: category ?? SymptomEntry.defaultCategory, now: now)
        let add = try conn.prepare("INSERT INTO journal_symptoms(name, category_id, created_ms) VALUES (?, ?, ?)")
        add.bind(1, name); add.bind(2, c.id); add.bind(3, now.millis)
        try add.run()
        return (name, c.name, nil)
    }

    /// Every category with its symptoms, by name; "All Symptoms" is always there.
    public func categories() throws(StoreError) -> [SymptomCategory] {
        let q = try conn.prepare("""
            SELECT c.name, s.name FROM journal_categories c LEFT JOIN journal_symptoms s ON s.category_id = c.id
            ORDER BY c.name COLLATE NOCASE, s.name COLLATE NOCASE
            """)
        var out: [SymptomCategory] = []
        while try q.step() {
            let c = q.string(0) ?? ""
            if out.last?.name != c { out.append(SymptomCategory(name: c, symptoms: [])) }
            if let s = q.string(1) { out[out.count - 1].symptoms.append(s) }
        }
        if !out.contains(where: { $0.name.lowercased() == SymptomEntry.defaultCategory.lowercased() }) {
            out.insert(SymptomCategory(name: SymptomEntry.defaultCategory, symptoms: []), at: 0)
        }
        return out
    }

    /// Adds names to one of the user's lists (`relieving`, `aggravating`, `lifestyle`).
    public func remember(_ names: [String], in list: String) throws(StoreError) {
        guard !names.isEmpty else { return }
        let add = try conn.prepare("INSERT OR IGNORE INTO journal_factors(kind, name) VALUES (?, ?)")
        for n in names {
            add.bind(1, list); add.bind(2, n)
            try add.run()
        }
    }

    /// One of the user's lists, by name.
    public func list(_ list: String) throws(StoreError) -> [String] {
        try conn.rows("SELECT name FROM journal_factors WHERE kind = ? ORDER BY name COLLATE NOCASE") { $0.bind(1, list) } _: { $0.string(0) ?? "" }
    }

    // MARK: Symptom entries

    static let symptomColumns = """
        id, symptom, category, at_ms, at_off, time_of_day, severity, relieved, aggravated, note, origin, version, deleted, part_meant
        """

    /// Stores a new entry; false (and nothing written) when its id is stored already — an
    /// imported symptom seen again, or one the user deleted.
    @discardableResult
    public func insert(_ e: SymptomEntry, now: Timestamp) throws(StoreError) -> Bool {
        let s = try conn.prepare("""
            INSERT OR IGNORE INTO symptom_entries(\(Self.symptomColumns), day, created_ms, updated_ms)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        bind(e, to: s)
        s.bind(15, e.day.daysSinceEpoch); s.bind(16, now.millis); s.bind(17, now.millis)
        try s.run()
        return conn.changes > 0
    }

    /// Replaces a stored entry (same id) with `e`.
    public func update(_ e: SymptomEntry, now: Timestamp) throws(StoreError) {
        let s = try conn.prepare("""
            UPDATE symptom_entries SET symptom = ?2, category = ?3, at_ms = ?4, at_off = ?5, time_of_day = ?6, severity = ?7,
                relieved = ?8, aggravated = ?9, note = ?10, origin = ?11, version = ?12, deleted = ?13, part_meant = ?14, day = ?15,
                updated_ms = ?16
            WHERE id = ?1
            """)
        bind(e, to: s)
        s.bind(15, e.day.daysSinceEpoch); s.bind(16, now.millis)
        try s.run()
    }

    private func bind(_ e: SymptomEntry, to s: Statement) {
        s.bind(1, id: e.id); s.bind(2, e.symptom); s.bind(3, e.category)
        s.bind(4, e.at.millis); s.bind(5, Int64(e.at.utcOffsetSeconds)); s.bind(6, e.timeOfDay.rawValue)
        s.bind(7, e.severity.rawValue); s.bind(8, Self.jsonList(e.relievedBy)); s.bind(9, Self.jsonList(e.aggravatedBy))
        s.bind(10, e.note); s.bind(11, e.origin.rawValue); s.bind(12, e.version); s.bind(13, e.deleted ? 1 : 0)
        s.bind(14, e.partMeant ? 1 : 0)
    }

    /// The entry stored under `id` (deleted ones included).
    public func symptomEntry(id: SampleID) throws(StoreError) -> SymptomEntry? {
        let q = try conn.prepare("SELECT \(Self.symptomColumns) FROM symptom_entries WHERE id = ?")
        q.bind(1, id: id)
        return try q.step() ? readSymptom(q) : nil
    }

    /// The entries whose id starts with `prefix` (hex digits, dashes ignored), at most `limit`.
    public func symptomEntries(idPrefix prefix: String, limit: Int = 2) throws(StoreError) -> [SymptomEntry] {
        try entries(of: Self.symptoms, idPrefix: prefix, limit: limit, readSymptom)
    }

    /// The entries of a local day (not deleted), in time order.
    public func symptomEntries(day: CivilDate) throws(StoreError) -> [SymptomEntry] {
        try entries(of: Self.symptoms, day: day, readSymptom)
    }

    /// The entries of the local days `from...to` (not deleted), in time order: one range of the
    /// day index (a report's period).
    public func symptomEntries(from: CivilDate, to: CivilDate) throws(StoreError) -> [SymptomEntry] {
        try entries(of: Self.symptoms, from: from, to: to, readSymptom)
    }

    /// Each local day's score over `from...to`: the sum of the severity weights of its entries
    /// (deleted ones left out), read in one range of the day index (the calendar's shading).
    /// Days without entries are absent.
    public func severityTotals(from: CivilDate, to: CivilDate) throws(StoreError) -> [CivilDate: Int] {
        let q = try conn.prepare(Self.severityTotalsQuery)
        q.bind(1, from.daysSinceEpoch); q.bind(2, to.daysSinceEpoch)
        var out: [CivilDate: Int] = [:]
        while try q.step() { out[CivilDate(daysSinceEpoch: q.int(0))] = Int(q.int(1)) }
        return out
    }

    static let severityTotalsQuery =
        "SELECT day, sum(severity) FROM symptom_entries WHERE day BETWEEN ?1 AND ?2 AND deleted = 0 GROUP BY day"

    /// The most recent entries (not deleted), newest first.
    /// How many symptom entries there are (deleted ones left out).
    public func symptomEntryCount() throws(StoreError) -> Int {
        try conn.rows("SELECT count(*) FROM symptom_entries WHERE deleted = 0") { _ in } _: { Int($0.int(0)) }.first ?? 0
    }

    /// The newest `limit` symptom entries (a negative limit: all of them), newest first.
    public func recentSymptomEntries(limit: Int) throws(StoreError) -> [SymptomEntry] {
        try conn.rows("SELECT \(Self.symptomColumns) FROM symptom_entries WHERE deleted = 0 ORDER BY at_ms DESC, id LIMIT ?") {
            $0.bind(1, limit)
        } _: { readSymptom($0) }
    }

    private func readSymptom(_ q: Statement) -> SymptomEntry {
        SymptomEntry(id: q.id(0) ?? SampleID(bytes: [UInt8](repeating: 0, count: 16)), symptom: q.string(1) ?? "",
                     category: q.string(2) ?? SymptomEntry.defaultCategory,
                     at: Timestamp(millis: q.int(3), utcOffsetSeconds: Int32(truncatingIfNeeded: q.int(4))),
                     timeOfDay: PartOfDay(rawValue: q.string(5) ?? ""), severity: Severity(rawValue: Int(q.int(6))) ?? .mild,
                     relievedBy: Self.list(q.string(7)), aggravatedBy: Self.list(q.string(8)), note: q.string(9),
                     version: Int(q.int(11)), origin: JournalOrigin(rawValue: q.string(10) ?? "") ?? .manual, deleted: q.int(12) != 0,
                     partMeant: q.int(13) != 0)
    }

    // MARK: Daily scores

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
