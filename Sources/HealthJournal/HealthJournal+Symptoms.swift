import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// What the user asks for when logging a symptom.
public struct SymptomLog: Sendable {
    public var symptom: String
    public var severity: Severity
    public var when: PartOfDay?
    /// The exact time; now when nil.
    public var at: Timestamp?
    public var category: String?
    public var relievedBy: [String] = []
    public var aggravatedBy: [String] = []
    public var note: String?

    public init(symptom: String, severity: Severity, when: PartOfDay? = nil, at: Timestamp? = nil, category: String? = nil,
                relievedBy: [String] = [], aggravatedBy: [String] = [], note: String? = nil) {
        self.symptom = symptom
        self.severity = severity
        self.when = when
        self.at = at
        self.category = category
        self.relievedBy = relievedBy
        self.aggravatedBy = aggravatedBy
        self.note = note
    }
}

/// Changes to a symptom entry: nil leaves a field as it is.
public struct SymptomChanges: Sendable {
    public var symptom: String?
    public var severity: Severity?
    public var when: PartOfDay?
    public var at: Timestamp?
    public var category: String?
    public var relievedBy: [String]?
    public var aggravatedBy: [String]?
    public var note: String?
    public init() {}
}

/// What the user asks for when logging a lifestyle factor.
public struct LifestyleLog: Sendable {
    public var factor: String
    public var measure: LifestyleMeasure?
    public var when: PartOfDay?
    public var at: Timestamp?
    public var note: String?
    public init(factor: String, measure: LifestyleMeasure? = nil, when: PartOfDay? = nil, at: Timestamp? = nil, note: String? = nil) {
        self.factor = factor
        self.measure = measure
        self.when = when
        self.at = at
        self.note = note
    }
}

/// One day of the journal: its entries and its scores.
public struct JournalDay: Sendable {
    public var day: CivilDate
    public var symptoms: [SymptomEntry]
    public var lifestyle: [LifestyleEntry]
    public var scores: [SymptomScore]
    /// Whether the day has ended (its scores are final and stored); false for today ("so far").
    public var complete: Bool
}

/// The journal's symptoms, lifestyle factors and daily scores: log, edit and delete entries,
/// list them, and score the days.
extension HealthJournal {
    /// When an entry happened: the time given; else, when a part of the day was chosen, the time
    /// the person meant by it (`PartOfDay.meantTime`: "morning" chosen at 18:07 is 08:30, not
    /// 18:07); else now.
    func meantTime(_ at: Timestamp?, _ part: PartOfDay?, now: Timestamp) -> Timestamp {
        at ?? part.map { LocalDay.timestamp($0.meantTime(now: now, zone: zone).millis, in: zone) } ?? now
    }

    // MARK: Symptoms

    /// Logs a symptom; the symptom (and its category) is created when new. Returns the entry
    /// and, when an existing symptom moved to another category, that category's name.
    @discardableResult
    public func logSymptom(_ log: SymptomLog) throws -> (entry: SymptomEntry, movedFrom: String?) {
        let now = self.now
        let symptom = try Self.name(log.symptom, what: "symptom")
        let category = try log.category.map { (c: String) throws(JournalError) -> String in try Self.name(c, what: "category") }
        var queued: Set<String> = []
        let result = try journal.transaction { () throws(StoreError) -> (SymptomEntry, String?) in
            let s = try journal.symptom(named: symptom, category: category, now: now)
            try journal.remember(log.relievedBy, in: "relieving")
            try journal.remember(log.aggravatedBy, in: "aggravating")
            let entry = SymptomEntry(id: newID(), symptom: s.name, category: s.category, at: meantTime(log.at, log.when, now: now),
                                     timeOfDay: log.when, severity: log.severity, relievedBy: log.relievedBy, aggravatedBy: log.aggravatedBy,
                                     note: log.note, partMeant: log.at == nil && log.when != nil)
            try journal.insert(entry, now: now)
            queued.formUnion(try send(JournalRecord(entry), previousStart: nil, now: now))
            queued.formUnion(try rescore([entry.day], now: now))
            return (entry, s.movedFrom)
        }
        if !queued.isEmpty { onQueued(queued.sorted()) }
        return result
    }

    /// Edits the entry whose id starts with `idPrefix`; the new version is sent under the same id.
    @discardableResult
    public func editSymptom(_ idPrefix: String, _ changes: SymptomChanges) throws -> SymptomEntry {
        let now = self.now
        var queued: Set<String> = []
        let entry = try journal.transaction { () throws(StoreError) -> Result<SymptomEntry, JournalError> in
            let old: SymptomEntry
            switch try findSymptom(idPrefix) { case let .success(e): old = e; case let .failure(f): return .failure(f) }
            var e = old
            if let s = changes.symptom {
                guard let name = try? Self.name(s, what: "symptom") else { return .failure(JournalError.emptyName(what: "symptom")) }
                let found = try journal.symptom(named: name, category: changes.category, now: now)
                e.symptom = found.name
                e.category = found.category
            } else if let c = changes.category {
                e.category = try journal.category(named: c, now: now).name
            }
            if let s = changes.severity { e.severity = s }
            if let at = changes.at {
                e.at = at; e.timeOfDay = changes.when ?? PartOfDay(of: at); e.partMeant = false
            } else if let w = changes.when, w != old.timeOfDay {
                // Another part of the same day: the time moves with it (issue 40).
                e.at = w.meantTime(on: old.day, now: now, zone: zone); e.timeOfDay = w; e.partMeant = true
            }
            if let r = changes.relievedBy { e.relievedBy = r; try journal.remember(r, in: "relieving") }
            if let a = changes.aggravatedBy { e.aggravatedBy = a; try journal.remember(a, in: "aggravating") }
            if let n = changes.note { e.note = n.isEmpty ? nil : n }
            guard e != old else { return .success(e) }
            e.version = old.version + 1
            try journal.update(e, now: now)
            queued.formUnion(try send(JournalRecord(e), previousStart: old.at.millis, now: now))
            queued.formUnion(try rescore([old.day, e.day], now: now))
            return .success(e)
        }.get()
        if !queued.isEmpty { onQueued(queued.sorted()) }
        return entry
    }

    /// Deletes the entry whose id starts with `idPrefix`: kept as a tombstone (never shown or
    /// scored again; re-importing it does not bring it back), and sent as one.
    @discardableResult
    public func deleteSymptom(_ idPrefix: String) throws -> SymptomEntry {
        let now = self.now
        var queued: Set<String> = []
        let entry = try journal.transaction { () throws(StoreError) -> Result<SymptomEntry, JournalError> in
            var e: SymptomEntry
            switch try findSymptom(idPrefix) { case let .success(found): e = found; case let .failure(f): return .failure(f) }
            let start = e.at.millis
            e.deleted = true
            e.version += 1
            try journal.update(e, now: now)
            queued.formUnion(try send(JournalRecord(e), previousStart: start, now: now))
            queued.formUnion(try rescore([e.day], now: now))
            return .success(e)
        }.get()
        if !queued.isEmpty { onQueued(queued.sorted()) }
        return entry
    }

    /// The symptom entry whose id starts with `idPrefix` (not deleted), for a page that edits it.
    public func symptomEntry(_ idPrefix: String) throws -> SymptomEntry {
        try findSymptom(idPrefix).get()
    }

    func findSymptom(_ prefix: String) throws(StoreError) -> Result<SymptomEntry, JournalError> {
        let hex = prefix.filter { $0 != "-" }
        guard hex.count >= 4, hex.allSatisfy(\.isHexDigit) else {
            return .failure(JournalError.notAnID(prefix: prefix, list: "symptom"))
        }
        let found = try journal.symptomEntries(idPrefix: hex)
        guard let e = found.first else { return .failure(JournalError.noEntry(kind: "symptom", prefix: prefix, list: "symptom")) }
        guard found.count == 1 else { return .failure(JournalError.ambiguousID(prefix: prefix)) }
        guard !e.deleted else { return .failure(JournalError.deleted(id: "\(e.id)")) }
        return .success(e)
    }

    /// How many symptom entries the newest-first list shows unless asked for all.
    public static let recentSymptomsShown = 50

    /// The newest `recentSymptomsShown` symptom entries (every one when `all`), and how many
    /// there are in all, so a shortened list can say so.
    public func recentSymptoms(all: Bool) throws -> (entries: [SymptomEntry], total: Int) {
        try absorbImports()
        let entries = try journal.recentSymptomEntries(limit: all ? -1 : Self.recentSymptomsShown)
        let total = entries.count < Self.recentSymptomsShown && !all ? entries.count : try journal.symptomEntryCount()
        return (entries, max(total, entries.count))
    }

    /// The symptom entries of `day`, or the 50 most recent when nil.
    public func symptoms(on day: CivilDate?) throws -> [SymptomEntry] {
        try absorbImports()
        if let day { return try journal.symptomEntries(day: day) }
        return try journal.recentSymptomEntries(limit: 50)
    }

    /// Each day's symptom score over `from...to` (the sum of its entries' severity weights), in
    /// one read whatever the span: the calendar's shading. Days without entries are absent.
    public func symptomScores(from: CivilDate, to: CivilDate) throws -> [CivilDate: Int] {
        try absorbImports()
        return try journal.severityTotals(from: from, to: to)
    }

    /// The categories and their symptoms.
    public func categories() throws -> [SymptomCategory] { try journal.categories() }

    /// Creates a category (requirement 1); returns its stored spelling.
    @discardableResult
    public func addCategory(_ name: String) throws -> String {
        let name = try Self.name(name, what: "category")
        let now = self.now
        return try journal.transaction { () throws(StoreError) -> String in try journal.category(named: name, now: now).name }
    }

    /// The user's relieving and aggravating factors and lifestyle factors, for suggestions.
    public func factorLists() throws -> (relieving: [String], aggravating: [String], lifestyle: [String]) {
        let lifestyle = try journal.list("lifestyle")
        return (try journal.list("relieving"), try journal.list("aggravating"),
                Array(Set(lifestyle.map { $0.lowercased() }).union(LifestyleEntry.suggested)).sorted())
    }

    // MARK: Lifestyle

    /// Logs a lifestyle factor.
    @discardableResult
    public func logLifestyle(_ log: LifestyleLog) throws -> LifestyleEntry {
        let now = self.now
        let factor = try Self.name(log.factor, what: "lifestyle factor")
        var queued: Set<String> = []
        let entry = try journal.transaction { () throws(StoreError) -> LifestyleEntry in
            try journal.remember([factor], in: "lifestyle")
            let e = LifestyleEntry(id: newID(), factor: factor, at: meantTime(log.at, log.when, now: now), timeOfDay: log.when,
                                   measure: log.measure, note: log.note, partMeant: log.at == nil && log.when != nil)
            try journal.insert(e, now: now)
            queued.formUnion(try send(JournalRecord(e), previousStart: nil, now: now))
            return e
        }
        if !queued.isEmpty { onQueued(queued.sorted()) }
        return entry
    }

    /// The lifestyle entries of `day`.
    public func lifestyle(on day: CivilDate) throws -> [LifestyleEntry] { try journal.lifestyleEntries(day: day) }

    // MARK: Days and scores

    /// Today in the user's zone.
    public var today: CivilDate { LocalDay.date(of: clock().millis, in: zone) }

    /// One day of the journal (today when nil): its entries and scores.
    public func day(_ date: CivilDate?) throws -> JournalDay {
        let day = date ?? today
        let scores = try scores(for: day)
        return JournalDay(day: day, symptoms: try journal.symptomEntries(day: day), lifestyle: try journal.lifestyleEntries(day: day),
                          scores: scores, complete: SymptomScoring.isComplete(day, at: clock().millis, in: zone))
    }

    /// The scores of `day`, per category and per symptom. A day that has ended is scored once
    /// (reading only that day's entries), stored and sent; later its stored scores are read
    /// (an edit of one of its entries scores it again at once). Today's scores are computed
    /// on each call and neither stored nor sent: the day is not over. Every category and every
    /// symptom of the journal is listed, 0 when it had no entries.
    ///
    /// The journal scheduler calls this at each local midnight (and on resume) for the day
    /// that ended (`LocalDay.lastCompleteDay`).
    public func scores(for day: CivilDate) throws -> [SymptomScore] {
        try absorbImports()
        let now = self.now
        let complete = SymptomScoring.isComplete(day, at: now.millis, in: zone)
        var queued: Set<String> = []
        let stored: [SymptomScore]
        if complete, let s = try journal.storedScores(day) {
            stored = s
        } else if complete {
            stored = try journal.transaction { () throws(StoreError) -> [SymptomScore] in
                queued.formUnion(try rescore([day], now: now, force: true))
                return try journal.storedScores(day) ?? []
            }
        } else {
            stored = SymptomScoring.scores(for: day, entries: try journal.symptomEntries(day: day))
        }
        if !queued.isEmpty { onQueued(queued.sorted()) }
        // Every category and symptom, 0 when it has no entries that day (not stored: zeros of
        // names that never had an entry that day are not worth a record each).
        let all = try journal.categories()
        return SymptomScoring.scores(for: day, entries: [], categories: all.map(\.name), symptoms: all.flatMap(\.symptoms))
            .map { zero in stored.first { $0.scope == zero.scope && $0.name.lowercased() == zero.name.lowercased() } ?? zero }
            + stored.filter { s in !all.contains { c in
                s.scope == .category ? c.name.lowercased() == s.name.lowercased() : c.symptoms.contains { $0.lowercased() == s.name.lowercased() }
            } }
    }

    /// Scores `days` again where they are stored (or where `force`), reading only their
    /// entries; changed scores are stored and sent. Returns the types queued. In a transaction.
    func rescore(_ days: [CivilDate], now: Timestamp, force: Bool = false) throws(StoreError) -> Set<String> {
        var queued: Set<String> = []
        let sending = settings.isEnabled(JournalType.symptomScore)
        for day in Set(days) {
            let scored = try journal.isScored(day)
            guard force || scored else { continue }
            let names = try journal.scoredNames(day)
            let scores = SymptomScoring.scores(for: day, entries: try journal.symptomEntries(day: day),
                                               categories: names.categories, symptoms: names.symptoms)
            let bounds = LocalDay.bounds(of: day, in: zone)
            let changed = try journal.saveScores(day, scores, now: now, send: sending) { s, version in
                JournalRecord(s, bounds: bounds, zone: zone, version: version)
            }
            if sending && !changed.isEmpty { queued.insert(JournalType.symptomScore) }
        }
        return queued
    }

    /// Puts a record in line unless its type is disabled; returns the types queued.
    func send(_ record: JournalRecord, previousStart: Int64?, now: Timestamp) throws(StoreError) -> Set<String> {
        guard settings.isEnabled(record.type) else { return [] }
        try journal.queue(record, previousStart: previousStart, now: now)
        return [record.type]
    }

    // MARK: Imported symptoms

    /// Turns symptom samples stored by imports since the last call into journal entries
    /// (HealthKit's severity: not present → no entry; unspecified → mild; mild, moderate,
    /// severe as they are). An entry's id derives from its sample's id: importing the same
    /// sample again finds the entry, and one the user deleted stays deleted. Returns how many
    /// entries were added.
    @discardableResult
    public func absorbImports() throws -> Int {
        let now = self.now
        var queued: Set<String> = []
        let added = try journal.transaction { () throws(StoreError) -> Int in
            let (found, through) = try journal.newImportedSymptoms()
            var added = 0
            var days: Set<CivilDate> = []
            for s in found {
                guard let severity = Severity(healthKit: s.value), let type = DataType.lookup(s.type) else { continue }
                let symptom = try journal.symptom(named: type.summary.lowercased(), category: nil, now: now)
                let e = SymptomEntry(id: SymptomEntry.importedID(sampleID: s.sampleID), symptom: symptom.name, category: symptom.category,
                                     at: s.start, severity: severity, origin: .imported)
                guard try journal.insert(e, now: now) else { continue }
                added += 1
                days.insert(e.day)
                queued.formUnion(try send(JournalRecord(e), previousStart: nil, now: now))
            }
            queued.formUnion(try rescore(Array(days), now: now))
            if through > 0 { try journal.markImported(through: through) }
            return added
        }
        if !queued.isEmpty { onQueued(queued.sorted()) }
        return added
    }

    // MARK: Names

    /// A trimmed, non-empty name of at most 100 characters, without control characters.
    static func name(_ raw: String, what: String) throws(JournalError) -> String {
        let name = raw.trimmingSpaces
        guard !name.isEmpty else { throw JournalError.emptyName(what: what) }
        guard name.count <= 100 else { throw JournalError.nameTooLong(what: what) }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw JournalError.controlCharacter(what: what, name: name)
        }
        return name
    }
}
