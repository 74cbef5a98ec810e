import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Correcting a measurement in the browser: its numbers changed (`HealthJournal.editMeasurement`)
/// or the reading deleted (`deleteMeasurement`), each with Undo. The numbers are checked as the
/// measurement forms check them (`MeasurementEntry`).
enum MeasureEdits {
    /// The form's `kind` of each measurement kind, and its fields.
    static let formKind: [MeasurementKind: String] = [.bloodPressure: "bp", .heartRate: "hr", .oxygen: "spo2", .glucose: "glucose", .weight: "weight", .steps: "steps"]

    /// The page that changes one reading (`measure-edit.mustache`).
    struct EditPage: Sendable {
        /// The form, nil when the reading is not there.
        struct Reading: Sendable {
            /// "Measured Thursday 26 November 2026, 09:12: 128/82 mmHg."
            let measured: String
            /// The key the change posts: the reading's first sample.
            let formKey: String
            /// The key Delete posts: the one the page was opened with.
            let readingKey: String
            /// The form's kind ("bp").
            let kind: String
            /// The unit blood sugar is typed in; nil for the other kinds.
            let glucoseUnit: String?
            /// Two numbers side by side (blood pressure).
            let paired: Bool
            let fields: [Field]
        }

        let back: String
        let missing: String?
        let reading: Reading?

        init(_ view: MeasurementEditView, key: String, back: String) {
            self.back = back
            guard let r = view.reading else {
                missing = "This reading cannot be changed: it was deleted, or the address is not right."
                reading = nil
                return
            }
            missing = nil
            var focus = Field.Focus()
            func number(_ label: String, _ name: String, _ value: Double) -> Field {
                Field(label: label, name: name, value: SampleIdentity.canonicalNumber(value), inputmode: "decimal", focus: &focus)
            }
            let unit = view.glucoseUnit
            let fields: [Field]
            switch r.kind {
            case .bloodPressure:
                fields = [number("Top number (systolic, mmHg)", "systolic", r.value)]
                    + (r.diastolic.map { [number("Bottom number (diastolic, mmHg)", "diastolic", $0)] }
                        ?? [Field(label: "Bottom number (diastolic, mmHg)", name: "diastolic", value: "", inputmode: "decimal", focus: &focus)])
            case .glucose:
                let shown = unit == .mgPerDL ? r.value.rounded() : (unit.value(fromMgPerDL: r.value) * 10).rounded() / 10
                fields = [number("Blood sugar in \(unit.rawValue)", "value-glucose", shown)]
            case .heartRate: fields = [number("Beats per minute", "value-hr", r.value)]
            case .oxygen: fields = [number("Percent", "value-spo2", r.value <= 1 ? r.value * 100 : r.value)]
            case .weight: fields = [number("Kilograms", "value-weight", (r.value * 10).rounded() / 10)]
            case .steps: fields = [number("Number of steps", "value-steps", r.value)]
            }
            reading = Reading(measured: "Measured \(DayStrip.long(r.date)), \(r.time): \(r.text).",
                              formKey: r.parts.first.map { "\($0.startMillis).\($0.id)" } ?? key, readingKey: key,
                              kind: MeasureEdits.formKind[r.kind] ?? "", glucoseUnit: r.kind == .glucose ? unit.rawValue : nil,
                              paired: r.kind == .bloodPressure, fields: fields)
        }
    }

    static func page(_ ctx: Configuration, store: LentStore, key: String, query: Form, keys: FormKeys) throws -> String {
        let view = try store.records().measurementEditView(key, glucoseUnit: ctx.settings.glucoseUnit)
        let title = view.reading.map { "Change: \($0.kind.title.lowercased())" } ?? "Change a measurement"
        return WebTemplates.render(PageFrame(title: title, path: "/measure", keys: keys, notice: Notice(query, back: "/measure"),
                                             page: EditPage(view, key: key, back: Page.back(query, else: "/measure"))), .measureEdit)
    }

    /// Saves the changed numbers (`MeasurePage.Fields`); lands on `back` with Undo, or back on
    /// the change page with what to do.
    static func save(_ ctx: Configuration, _ store: LentStore, _ form: MeasurePage.Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/measure")
        let key = form.key ?? ""
        let edit = "/measure/\(Page.percentEncode(key))/edit?back=\(Page.percentEncode(back))"
        let fields = form.typed
        let unit = GlucoseUnit(rawValue: form.unit ?? "") ?? ctx.settings.glucoseUnit
        // Steps keep their time (from … until); only the count changes.
        let change: (HealthJournal, Timestamp) throws -> (old: MeasurementReading, newKey: String)
        if form.kind == "steps" {
            let (count, problem) = MeasurementEntry.stepCount(fields)
            guard let count else { return (Page.redirect(edit, error: "Not changed: " + (problem?.message ?? "")), nil) }
            change = { journal, now in try journal.editSteps(key, to: count, now: now) }
        } else {
            switch MeasurementEntry.parse(kind: form.kind ?? "", fields: fields, glucoseUnit: unit) {
            case .problems(let problems):
                return (Page.redirect(edit, error: "Not changed: " + problems.map(\.message).joined(separator: " ")), nil)
            case .measurement(let m):
                change = { journal, now in try journal.editMeasurement(key, to: m, now: now) }
            }
        }
        do {
            return try store.run { r in
                let journal = try r.records()
                let (old, newKey) = try change(journal, r.now)
                guard newKey != key else { return (Page.redirect(back, ok: "Nothing was changed."), nil) }
                let new = try journal.measurement(newKey)
                return (Page.redirect(back, ok: "Changed: \(new.kind.title.lowercased()) \(new.text) (was \(old.text))."),
                        JournalUndo.revertMeasurement(new: newKey, old: key))
            }
        } catch { return (Page.redirect(edit, error: "Not changed: \(WebJournal.message(error))"), nil) }
    }

    /// Deletes the reading (`key`); lands on `back` with Undo.
    static func delete(_ ctx: Configuration, _ store: LentStore, _ form: MeasurePage.Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/measure")
        let key = form.key ?? ""
        do {
            let m = try store.run { r in try r.records().deleteMeasurement(key) }
            return (Page.redirect(back, ok: "Deleted: \(m.kind.title.lowercased()) \(m.text) of \(m.time)."), .restoreMeasurement(key))
        } catch { return (Page.redirect(back, error: "Not deleted: \(WebJournal.message(error))"), nil) }
    }
}
