import HealthSpoolCore
import HealthSpoolStore

/// How a goal was checked off on a day.
public enum GoalCheck: String, Sendable {
    /// By the user (`goal done`).
    case hand
    /// By itself, from the day's imported samples.
    case data
}

extension JournalStore {
    /// Adds a goal; returns it with its id.
    public func addGoal(_ g: Goal, now: Timestamp) throws(StoreError) -> Goal {
        try write { () throws(StoreError) -> Goal in
            try run("INSERT INTO goals(name, rrule, start_date, type, target, created_ms) VALUES (?,?,?,?,?,?)") { s in
                s.bind(1, g.name); s.bind(2, g.rule?.description); s.bind(3, g.start.description); s.bind(4, g.type)
                if let t = g.target { s.bind(5, t) }
                s.bind(6, now.millis)
            }
            var added = g
            added.id = lastRowID
            return added
        }
    }

    /// Every goal, by id.
    public func goals() throws(StoreError) -> [Goal] {
        try conn.rows("SELECT id, name, rrule, start_date, type, target FROM goals ORDER BY id") { s -> Goal in
            Goal(id: s.int(0), name: s.string(1) ?? "", rule: s.string(2).flatMap { try? RecurrenceRule(parsing: $0) },
                 start: CivilDate(parsing: s.string(3) ?? "") ?? CivilDate(year: 1970, month: 1, day: 1),
                 type: s.string(4), target: s.isNull(5) ? nil : s.double(5))
        }
    }

    /// The days each goal was checked off, with how: `[goalID: [day: how]]`.
    public func goalChecks() throws(StoreError) -> [Int64: [String: GoalCheck]] {
        var out: [Int64: [String: GoalCheck]] = [:]
        for (id, day, how) in try conn.rows("SELECT goal_id, day, how FROM goal_checks", { _ in }, { s in (s.int(0), s.string(1) ?? "", s.string(2) ?? "") }) {
            out[id, default: [:]][day] = GoalCheck(rawValue: how) ?? .hand
        }
        return out
    }

    /// Checks a goal off for `day` (kept if it was checked already); false when it was.
    @discardableResult
    public func checkGoal(id: Int64, day: CivilDate, how: GoalCheck, at: Timestamp) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("INSERT OR IGNORE INTO goal_checks(goal_id, day, at_ms, how) VALUES (?,?,?,?)") { s in
                s.bind(1, id); s.bind(2, day.description); s.bind(3, at.millis); s.bind(4, how.rawValue)
            } == 1
        }
    }

    /// Removes a goal and its checks; false when there is none.
    public func removeGoal(id: Int64) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("DELETE FROM goal_checks WHERE goal_id = ?") { $0.bind(1, id) }
            return try run("DELETE FROM goals WHERE id = ?") { $0.bind(1, id) } == 1
        }
    }

    /// Adds a note; returns it with its id.
    public func addNote(_ n: Note) throws(StoreError) -> Note {
        try write { () throws(StoreError) -> Note in
            try run("INSERT INTO notes(category, text, created_ms, created_off, audio) VALUES (?,?,?,?,?)") { s in
                s.bind(1, n.category); s.bind(2, n.text); s.bind(3, n.created.millis); s.bind(4, Int64(n.created.utcOffsetSeconds))
                s.bind(5, n.audioFile)
            }
            var added = n
            added.id = lastRowID
            return added
        }
    }

    /// Records a note's audio file name.
    public func setNoteAudio(id: Int64, file: String) throws(StoreError) {
        try write { () throws(StoreError) in try run("UPDATE notes SET audio = ? WHERE id = ?") { $0.bind(1, file); $0.bind(2, id) } }
    }

    /// Notes, newest first, of one category or all.
    public func notes(category: String? = nil) throws(StoreError) -> [Note] {
        try conn.rows("SELECT id, category, text, created_ms, created_off, audio FROM notes WHERE ?1 IS NULL OR category = ?1 ORDER BY created_ms DESC, id DESC") { s in
            s.bind(1, category)
        } _: { s in
            Note(id: s.int(0), category: s.string(1) ?? "", text: s.string(2) ?? "",
                 created: Timestamp(millis: s.int(3), utcOffsetSeconds: Int32(s.int(4))), audioFile: s.string(5))
        }
    }

    /// The categories in use, with how many notes each has.
    public func noteCategories() throws(StoreError) -> [(String, Int)] {
        try conn.rows("SELECT category, count(*) FROM notes GROUP BY category ORDER BY category") { _ in } _: { s in (s.string(0) ?? "", Int(s.int(1))) }
    }

    /// Removes a note; returns it (its audio file is the caller's to delete), nil when none.
    public func removeNote(id: Int64) throws(StoreError) -> Note? {
        try write { () throws(StoreError) -> Note? in
            let found = try conn.rows("SELECT id, category, text, created_ms, created_off, audio FROM notes WHERE id = ?") { $0.bind(1, id) } _: { s in
                Note(id: s.int(0), category: s.string(1) ?? "", text: s.string(2) ?? "",
                     created: Timestamp(millis: s.int(3), utcOffsetSeconds: Int32(s.int(4))), audioFile: s.string(5))
            }.first
            try run("DELETE FROM notes WHERE id = ?") { $0.bind(1, id) }
            return found
        }
    }
}
