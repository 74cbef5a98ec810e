import HealthSpoolLinux

/// A due reminder as it is shown: what the journal scheduler (over `JournalPlan`) hands
/// to `ReminderDelivery`.
public struct ReminderNotice: Sendable, Equatable {
    /// The medication a reminder is for, and the dose to take.
    public struct Medication: Sendable, Equatable {
        public var name: String
        public var dose: String?
        public init(name: String, dose: String? = nil) {
            self.name = name
            self.dose = dose
        }
    }

    /// The reminder's name as the user wrote it ("Morning pills").
    public var name: String
    /// The time of day it is set for, as shown to the user ("08:00").
    public var time: String
    public var medication: Medication?
    /// The stored reminder's id (what "Taken" logs a dose for), when it came from the journal.
    public var reminderID: Int64?

    public init(name: String, time: String, medication: Medication? = nil, reminderID: Int64? = nil) {
        self.name = name
        self.time = time
        self.medication = medication
        self.reminderID = reminderID
    }

    /// The key of the button that logs a dose ("take").
    public static let takeAction = "take"

    /// The notification for this reminder: its name as the summary; for a medication, what to
    /// take and a "Taken" button.
    public var notification: NotificationRequest {
        guard let medication else {
            return NotificationRequest(summary: name, body: "Due at \(time)")
        }
        let dose = medication.dose.map { " (\($0))" } ?? ""
        return NotificationRequest(summary: name, body: "Take \(medication.name)\(dose), due at \(time)",
                                   actions: [.init(key: Self.takeAction, label: "Taken")])
    }
}
