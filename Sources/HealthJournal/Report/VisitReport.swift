import HealthSpoolCore

/// The summary of a period for a doctor's visit (`healthspool report`, the web's `/report`): a
/// plain value made by `VisitReports.report`, shown through `ReportSections` (the templates of
/// the self-contained HTML file and of the web page), and as JSON (`json`). A section with no data is empty
/// and left out by every rendering.
public struct VisitReport: Sendable {
    /// The period, both days included.
    public var from: CivilDate
    public var to: CivilDate
    /// When it was made, in the journal's zone.
    public var made: Timestamp
    /// Whose it is (`report.name`), when set.
    public var name: String?
    public var symptoms: [SymptomCategoryFigures] = []
    public var factors: FactorFigures?
    public var medications: [MedicationFigures] = []
    public var measurements: [MeasurementFigures] = []
    public var activity: ActivityFigures?
    public var notes: [NoteGroup] = []
    /// The period's symptom entries one by one (for the FHIR file; the renderings use the figures).
    public var symptomEntries: [SymptomEntry] = []
    /// The unit blood glucose is shown in (`journal.glucose_unit`).
    public var glucoseUnit = GlucoseUnit.mmolPerL
    /// The period's ECG recordings, each with its strip (6 s a row: 150 mm on paper).
    public var ecgs: [DayRecordings.ECG] = []
    /// The providers' records (conditions, allergies, medications, immunizations) and the
    /// period's heart-rate notifications.
    public var healthRecords = HealthRecords()
    public var heartRateNotifications: [DayEvents.Notification] = []

    /// The days of the period, `from` first.
    public var days: [CivilDate] {
        (from.daysSinceEpoch...max(from.daysSinceEpoch, to.daysSinceEpoch)).map(CivilDate.init(daysSinceEpoch:))
    }

    /// Whether there is nothing to show.
    public var isEmpty: Bool {
        symptoms.isEmpty && factors == nil && medications.isEmpty && measurements.isEmpty && activity == nil && notes.isEmpty
            && ecgs.isEmpty && healthRecords.isEmpty && heartRateNotifications.isEmpty
    }
}

/// The daily scores of one category or one symptom over the period.
public struct ScoreFigures: Sendable, Equatable {
    public var name: String
    /// Entries logged.
    public var entries: Int
    /// Days with at least one entry.
    public var days: Int
    /// The sum of the daily scores (severity weights: mild 1 … debilitating 4).
    public var total: Int
    /// The highest daily score.
    public var highest: Int
    /// The days with the highest scores, highest first (then oldest), at most three.
    public var worstDays: [DayScore]
    /// Each day's score, one per day of the period (0: no entries).
    public var daily: [Int]
    /// Entries by part of the day, in the order of `PartOfDay.allCases`, parts without entries left out.
    public var parts: [PartCount]
}

/// A day and its score.
public struct DayScore: Sendable, Equatable {
    public var day: CivilDate
    public var score: Int
}

/// How many entries fell in a part of the day.
public struct PartCount: Sendable, Equatable {
    public var part: PartOfDay
    public var count: Int
}

/// A symptom category: its own scores and its symptoms'.
public struct SymptomCategoryFigures: Sendable, Equatable {
    public var category: ScoreFigures
    /// Most entries first.
    public var symptoms: [ScoreFigures]
}

/// A name and how often it was named.
public struct NameCount: Sendable, Equatable {
    public var name: String
    public var count: Int
}

/// The factors: named with symptoms, and the lifestyle factors of the worst days.
public struct FactorFigures: Sendable, Equatable {
    /// Most named first, at most ten each.
    public var aggravating: [NameCount]
    public var relieving: [NameCount]
    /// The days with the highest total symptom scores (the top quarter of the days with entries).
    public var highDays: Int
    /// The other days of the period.
    public var otherDays: Int
    /// Each lifestyle factor: on how many of the high days and of the other days it was logged.
    public var lifestyle: [LifestyleComparison]
}

/// A lifestyle factor on the high-score days against the other days.
public struct LifestyleComparison: Sendable, Equatable {
    public var factor: String
    public var highDays: Int
    public var otherDays: Int
}

/// A medication, its doses in the period and its adherence to its reminders.
public struct MedicationFigures: Sendable, Equatable {
    public var name: String
    public var dose: String
    public var directions: String
    public var prescriber: String
    /// Doses logged in the period.
    public var taken: Int
    /// The journal's id of the medication (the FHIR file's stable resource id comes from it).
    public var id: Int64 = 0
    /// Doses due by its reminders and how they were taken; nil when no reminder is linked to it.
    public var adherence: AdherenceCount?
    /// The same by week (Monday first), oldest first.
    public var weeks: [WeekAdherence]
}

/// One week's adherence.
public struct WeekAdherence: Sendable, Equatable {
    /// The Monday the week starts on.
    public var week: CivilDate
    public var count: AdherenceCount
}

/// One kind of measurement over the period: each reading, or past `MeasurementFigures.readingLimit`
/// readings each day's lowest, mean and highest.
public struct MeasurementFigures: Sendable, Equatable {
    /// `bloodPressure`, or a type's registry name (`heartRate`, `oxygenSaturation`, `bloodGlucose`, `bodyMass`).
    public var kind: String
    public var title: String
    public var unit: String
    /// Readings in all.
    public var count: Int
    /// Every reading, oldest first (empty when there are more than `readingLimit`).
    public var readings: [Reading]
    /// Each day with readings (when there are more than `readingLimit`).
    public var daily: [DailyRange]

    /// Up to this many readings are listed one by one.
    public static let readingLimit = 60
}

/// A reading: a value, or for blood pressure systolic (`value`) over diastolic (`second`).
public struct Reading: Sendable, Equatable {
    public var at: Timestamp
    public var value: Double
    public var second: Double?
    /// The sample's id (and the diastolic sample's), for the FHIR file's resource ids.
    public var id: SampleID? = nil
    public var secondID: SampleID? = nil
}

/// A day's readings: lowest, mean and highest (blood pressure: of the systolic, and of the
/// diastolic in `second`).
public struct DailyRange: Sendable, Equatable {
    public var day: CivilDate
    public var count: Int
    public var low: Double
    public var mean: Double
    public var high: Double
    public var second: Range3?

    /// Lowest, mean, highest.
    public struct Range3: Sendable, Equatable {
        public var low: Double
        public var mean: Double
        public var high: Double
    }
}

/// Steps and sleep per day, from the day rollups (the day view's totals).
public struct ActivityFigures: Sendable, Equatable {
    public var days: [ActivityDay]
    /// Means over the days that have the figure (nil: none has).
    public var meanSteps: Double?
    public var meanAsleepMinutes: Double?
    public var meanInBedMinutes: Double?
}

/// One day's steps and sleep (nil: no data that day).
public struct ActivityDay: Sendable, Equatable {
    public var day: CivilDate
    public var steps: Double?
    public var asleepMinutes: Double?
    public var inBedMinutes: Double?
    /// The nights' first start and last end (milliseconds), when the sleep figure has them.
    public var night: Range<Int64>? = nil
}

/// The notes of one category in the period, oldest first.
public struct NoteGroup: Sendable, Equatable {
    public var category: String
    /// Whether it is the category of questions for the doctor (shown first).
    public var questions: Bool
    public var notes: [ReportNote]
}

/// A note as the report shows it.
public struct ReportNote: Sendable, Equatable {
    public var created: Timestamp
    public var text: String
    public var hasAudio: Bool
}
