/// A page template by name: one case per file in `Templates/` (`<raw value>.mustache`). Code
/// names a template only through this enum, so a misspelled name does not compile, and
/// `WebTemplates` checks at start that every case has its file.
///
/// A new template: add `Templates/<name>.mustache` and a case here (a test checks that the two
/// lists are the same); render it with `WebTemplates.render(model, .<case>)`, or include it from
/// another template with `{{>name}}` (checked at start too).
enum WebTemplate: String, CaseIterable, Sendable {
    // Pages (each a `{{<layout}}` child rendered inside `PageFrame`, or a page of its own).
    case day, deletions, entryGone = "entry-gone", goalsPage = "goals-page", home, `import`, journal, layout
    case lifestyle, lifestyleEdit = "lifestyle-edit", measure, measureEdit = "measure-edit", medEdit = "med-edit", meds
    case noteEdit = "note-edit", notes, plain, records, reminderEdit = "reminder-edit", reminders, report, settings
    case symptomEdit = "symptom-edit", symptomLog = "symptom-log", sync
    // Parts (`{{>name}}` partials, some also rendered alone).
    case backField = "back-field", bars, dateField = "date-field", dayCalendar = "day-calendar", dayEvents = "day-events"
    case dayRecordings = "day-recordings", dayStrip = "day-strip", doseList = "dose-list", entries, entryActions = "entry-actions"
    case field, figures, formKeys = "form-keys", formRefused = "form-refused", glance, goals, heartCurve = "heart-curve"
    case notChangeable = "not-changeable", notice, reading, reminderForm = "reminder-form", repeatFields = "repeat-fields"
    case timeField = "time-field", trend
    // The doctor's summary: the file `healthspool report --out` writes, the body the page and the
    // file share, and its sections (`ReportSections`).
    case reportFile = "report-file", reportBody = "report-body", reportActivity = "report-activity", reportChart = "report-chart"
    case reportEcgs = "report-ecgs", reportFactors = "report-factors", reportMeasurements = "report-measurements"
    case reportMedications = "report-medications", reportNotes = "report-notes", reportRecords = "report-records", reportLabs = "report-labs"
    case reportSymptoms = "report-symptoms"
}
