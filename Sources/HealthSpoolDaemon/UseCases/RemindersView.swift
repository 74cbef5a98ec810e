import HealthSpoolCore

/// What the web's reminders pages show, read on one store connection: every reminder with its
/// rule in words and its next ring, the medications a reminder can be for, and today (the
/// first day a new reminder's form offers).
public struct RemindersView: Sendable {
    public var rows: [ReminderRow]
    public var medications: [Medication]
    public var today: CivilDate
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
        ReminderEditView(reminder: try id.flatMap { try? reminder($0) }, medications: try medications())
    }
}
