/// A medication the user takes (R13): its name and what the prescription says.
public struct Medication: Hashable, Sendable {
    /// Stable id (the store's row id).
    public var id: Int64
    /// The name used on the command line (`ibuprofen`), unique.
    public var name: String
    /// Brand or other names (`Advil`, `Nurofen`); `med take` accepts these too.
    public var otherNames: [String]
    public var dose: String
    public var prescriber: String
    public var directions: String
    /// The times of day it is taken (informative; reminders ring at their own times).
    public var times: [TimeOfDay]

    public init(id: Int64 = 0, name: String, otherNames: [String] = [], dose: String = "", prescriber: String = "",
                directions: String = "", times: [TimeOfDay] = []) {
        self.id = id
        self.name = name
        self.otherNames = otherNames
        self.dose = dose
        self.prescriber = prescriber
        self.directions = directions
        self.times = times
    }

    /// Whether `key` names this medication (its name or another name, any case).
    public func isNamed(_ key: String) -> Bool {
        let k = key.lowercased()
        return name.lowercased() == k || otherNames.contains { $0.lowercased() == k }
    }

    /// Checks the name: not empty, no comma (other names are listed with commas).
    public static func validName(_ name: String) throws(JournalError) -> String {
        let n = name.trimmingSpaces
        guard !n.isEmpty, !n.contains(","), n.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else {
            throw .invalid(field: "name", value: name, expected: "a name without commas or control characters")
        }
        return n
    }
}

/// A dose taken (R14): when, stamped at logging and editable.
public struct Dose: Hashable, Sendable {
    /// Stable id (the store's row id).
    public var id: Int64
    public var medicationID: Int64
    public var takenAt: Timestamp
    /// The reminder whose "taken" action logged it, if any.
    public var reminderID: Int64?

    public init(id: Int64 = 0, medicationID: Int64, takenAt: Timestamp, reminderID: Int64? = nil) {
        self.id = id
        self.medicationID = medicationID
        self.takenAt = takenAt
        self.reminderID = reminderID
    }
}
