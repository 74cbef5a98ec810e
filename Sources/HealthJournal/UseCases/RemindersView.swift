import HealthSpoolCore

/// What the web's reminders page and `healthspool remind list` show, read on one store
/// connection: every reminder with its rule in words and its next ring, the medications a
/// reminder can be for, and today (the first day a new reminder's form offers). The command
/// prints `text` or `json`; the page lists the same rows.
public struct RemindersView: Sendable {
    public var rows: [ReminderRow]
    public var medications: [Medication]
    public var today: CivilDate

    /// The terminal form: a line a reminder with its id, name and kind, the rule in the words
    /// the page uses and then as an RRULE, and when it next rings; a hint when there is none.
    public var text: String {
        if rows.isEmpty { return "no reminders; add one with: healthspool remind add \"Take ibuprofen\" --times 08:00,20:00" }
        return rows.map { row in
            let r = row.reminder
            return "\(r.id)  \(r.name)  [\(r.kind.rawValue)]  \(row.words) (\(r.rule))  next \(row.next?.shortLocal ?? "never")"
        }.joined(separator: "\n")
    }

    /// The reminders as `--json` lists them: each one's fields, its rule in words (`repeat`)
    /// and its next ring (`next`, null: never).
    public var json: JSONValue {
        .array(rows.map { row in
            var o = JournalRows.json(row.reminder).objectValue ?? []
            o.append(("repeat", .string(row.words)))
            o.append(("next", row.next.map { .string($0.iso8601Local) } ?? .null))
            return .object(o)
        })
    }
}

/// What the page that changes one reminder shows: the reminder (nil: it is not there any
/// more) and the medications it can be for.
public struct ReminderEditView: Sendable {
    public var reminder: Reminder?
    public var medications: [Medication]

    public init(reminder: Reminder?, medications: [Medication]) {
        self.reminder = reminder
        self.medications = medications
    }
}

extension HealthJournal {
    /// The reminders as of `now`.
    public func remindersView(now: Timestamp) throws -> RemindersView {
        RemindersView(rows: try reminderRows(now: now), medications: try medications(), today: try day(nil, now: now))
    }

    /// The reminder with this id, to change.
    public func reminderEditView(id: Int64?) throws -> ReminderEditView {
        ReminderEditView(reminder: id.flatMap { try? reminder($0) }, medications: try medications())
    }
}
