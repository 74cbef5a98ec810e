/// Where a journal entry came from.
public enum JournalOrigin: String, Sendable, Equatable {
    /// Logged by the user (command line or web interface).
    case manual
    /// A symptom sample of an import (Apple Health export, Health Auto Export).
    case imported
}

/// One logged occurrence of a symptom (requirements 2–7): the symptom and its category, when
/// it happened (an exact time and the part of the day), how bad, what relieved and what
/// aggravated it, and a note.
///
/// An entry's day is the local date of `at` in the offset it was recorded with: the day as the
/// user lived it, wherever they were (`SymptomScoring`).
public struct SymptomEntry: Sendable, Equatable {
    /// The stable id, kept across edits and sent with every version.
    public var id: SampleID
    public var symptom: String
    /// The category the symptom was in when logged ("All Symptoms" when none was chosen).
    public var category: String
    public var at: Timestamp
    public var timeOfDay: PartOfDay
    public var severity: Severity
    public var relievedBy: [String]
    public var aggravatedBy: [String]
    public var note: String?
    /// 1 when logged, one more at each edit and at the delete.
    public var version: Int
    public var origin: JournalOrigin
    /// Deleted entries are kept as tombstones: not shown or scored, their id never reused.
    public var deleted: Bool
    /// Whether `at` stands for the part of the day the person chose (`PartOfDay.meantTime`), not a
    /// time they gave: shown as the part ("Morning"), not as a clock time.
    public var partMeant: Bool

    /// The category of symptoms logged without one (requirement 2).
    public static let defaultCategory = "All Symptoms"

    public init(id: SampleID, symptom: String, category: String = SymptomEntry.defaultCategory, at: Timestamp,
                timeOfDay: PartOfDay? = nil, severity: Severity, relievedBy: [String] = [], aggravatedBy: [String] = [],
                note: String? = nil, version: Int = 1, origin: JournalOrigin = .manual, deleted: Bool = false,
                partMeant: Bool = false) {
        self.id = id
        self.symptom = symptom
        self.category = category
        self.at = at
        self.timeOfDay = timeOfDay ?? PartOfDay(of: at)
        self.severity = severity
        self.relievedBy = relievedBy
        self.aggravatedBy = aggravatedBy
        self.note = note
        self.version = version
        self.origin = origin
        self.deleted = deleted
        self.partMeant = partMeant
    }

    /// The local day the entry counts for.
    public var day: CivilDate { at.localDate }

    /// When it happened as the person gave it: "Morning" or "18:07" (`PartOfDay.shown`).
    public var shownTime: String { PartOfDay.shown(at, part: timeOfDay, meant: partMeant) }

    /// "in the morning" or "at 18:07", for a sentence.
    public var shownPhrase: String { partMeant ? timeOfDay.phrase : "at " + shownTime }

    /// The id of the journal entry made from an imported symptom sample: derived from the
    /// sample's id, so importing the same sample again finds the same entry.
    public static func importedID(sampleID: SampleID) -> SampleID {
        SampleIdentity.id(type: JournalType.symptomEntry, start: 0, end: 0, value: nil, unit: "imported",
                          sourceName: sampleID.description)
    }
}
