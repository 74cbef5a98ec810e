import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The measurements page (`/measure`, `measure.mustache`): each kind's latest reading, the
/// forms, the charts, then the recent readings by day (newest first), all from
/// `HealthJournal.measurements`, the view the day view's list also comes from.
struct MeasurePage: Sendable {
    struct LatestReading: Sendable {
        let text: String
        let other: String?
        let when: String
        /// How it compares with the person's usual (`MeasurementsView.glance`).
        let glance: Glance?
    }

    struct Latest: Sendable {
        let kind: String
        let title: String
        let reading: LatestReading?
    }

    /// A form with one number field (heart rate, oxygen, blood sugar, weight).
    struct Single: Sendable {
        let kind: String
        let title: String
        let lowerTitle: String
        /// Blood sugar's unit as the form was shown: a value typed in mg/dL stays mg/dL if the
        /// choice changes meanwhile.
        let unit: String?
        let field: Field
    }

    struct Day: Sendable {
        let title: String
        let readings: [ReadingRow]
    }

    /// "Your blood pressure was not saved. …" when the page is shown again with errors.
    let notSaved: String?
    let latest: [Latest]
    let periodDays: Int
    /// Nil on the page shown again with errors.
    let charts: MeasureCharts.Section?
    let systolic: Field
    let diastolic: Field
    let singles: [Single]
    let steps: Field
    let since: Field
    let days: [Day]

    init(_ view: MeasurementsView, charts: MeasureCharts.Section?, glucoseUnit: GlucoseUnit, typed: Typed? = nil, notSaved: String? = nil,
         style: NumberStyle = NumberStyle()) {
        self.notSaved = notSaved
        latest = view.latest.map { kind, r in
            Latest(kind: kind.rawValue, title: kind.title,
                   reading: r.map { LatestReading(text: $0.text, other: $0.other, when: DayStrip.long($0.date) + ", " + $0.time,
                                                  glance: view.glance(of: kind, style: style)) })
        }
        periodDays = view.periodDays
        self.charts = charts
        var focus = Field.Focus()
        func number(_ label: String, _ name: String, _ kind: String, decimal: Bool, hint: String? = nil, value: String? = nil, short: Bool = false) -> Field {
            Field(label: label, name: name, value: value ?? typed?.value(name, of: kind) ?? "", inputmode: short ? nil : decimal ? "decimal" : "numeric",
                  short: short, hint: hint, error: typed?.error(name, of: kind), focus: &focus)
        }
        systolic = number("Top number (systolic, mmHg)", "systolic", "bp", decimal: false)
        diastolic = number("Bottom number (diastolic, mmHg)", "diastolic", "bp", decimal: false)
        singles = [("hr", "Heart rate", "Beats per minute", false), ("spo2", "Blood oxygen", "Percent", false),
                   ("glucose", "Blood sugar", "Blood sugar in \(glucoseUnit.rawValue)", glucoseUnit == .mmolPerL),
                   ("weight", "Weight", "Kilograms", true)].map { kind, title, label, decimal in
            Single(kind: kind, title: title, lowerTitle: title.lowercased(), unit: kind == "glucose" ? glucoseUnit.rawValue : nil,
                   field: number(label, "value-" + kind, kind, decimal: decimal))
        }
        steps = number("Number of steps", "value-steps", "steps", decimal: false, hint: "A whole number, for example 4200")
        let typedSince = typed?.value("since", of: "steps") ?? ""
        since = number("Counted since (time today)", "since", "steps", decimal: false, hint: "For example 08:00; 00:00 for the whole day so far",
                       value: typedSince.isEmpty ? "00:00" : typedSince, short: true)
        days = view.days.map { Day(title: DayStrip.long($0.date), readings: $0.readings.map { ReadingRow($0, back: "/measure") }) }
    }

    static func render(_ ctx: Configuration, store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let view = try store.records().measurements(now: DaemonClock.now())
        let labs = try store.healthRecords().labs
        let page = MeasurePage(view, charts: MeasureCharts.section(ctx, view, labs: labs, query: query), glucoseUnit: view.glucoseUnit,
                               style: NumberStyle(environment: ctx.environment))
        return WebTemplates.render(PageFrame(title: "Measurements", path: "/measure", keys: csrf, notice: Notice(query, back: "/measure"), page: page),
                                   .measure)
    }

    /// The fields of the measurement forms (each kind's on this page, and the change and delete
    /// forms of one reading, `MeasureEdits`): which `kind` ("bp", "hr", "spo2", "glucose",
    /// "weight", "steps"), blood sugar's `unit` as the form was shown, the reading's `key` and
    /// `back` (the change forms'), and the numbers as typed, each in its own field (a typo is
    /// said next to the field by `MeasurementEntry`, never a 400). All optional.
    struct Fields: Decodable, Sendable {
        var kind: String?
        var unit: String?
        var key: String?
        var back: String?
        var systolic: String?
        var diastolic: String?
        var heartRate: String?
        var oxygen: String?
        var glucose: String?
        var weight: String?
        var steps: String?
        var since: String?

        private enum CodingKeys: String, CodingKey {
            case kind, unit, key, back, systolic, diastolic, heartRate = "value-hr", oxygen = "value-spo2", glucose = "value-glucose",
                 weight = "value-weight", steps = "value-steps", since
        }

        /// The numbers as typed, by field name ("value-hr"): what `MeasurementEntry` reads, and
        /// what a form shown again holds.
        var typed: [String: String] {
            let all: [CodingKeys: String?] = [.systolic: systolic, .diastolic: diastolic, .heartRate: heartRate, .oxygen: oxygen,
                                              .glucose: glucose, .weight: weight, .steps: steps, .since: since]
            return Dictionary(uniqueKeysWithValues: all.compactMap { k, v in v.map { (k.rawValue, $0) } })
        }
    }

    /// What was typed and what is wrong with it, when a form is shown again.
    struct Typed {
        var kind: String
        var typed: [String: String]
        var problems: [MeasurementEntry.Problem]

        func value(_ name: String, of formKind: String) -> String { formKind == kind ? typed[name] ?? "" : "" }
        func error(_ name: String, of formKind: String) -> String? {
            formKind == kind ? problems.first { $0.field == name }?.message : nil
        }
    }

    /// Saves a measurement, or shows the page again with what was typed and, next to each field
    /// that needs it, what to do (status 422; nothing is stored).
    static func add(_ ctx: Configuration, _ store: LentStore, _ form: Fields, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let kind = form.kind ?? ""
        let fields = form.typed
        let unit = GlucoseUnit(rawValue: form.unit ?? "") ?? ctx.settings.glucoseUnit
        let outcome = kind == "steps" ? try StepsForm.parse(store: store, fields) : MeasurementEntry.parse(kind: kind, fields: fields, glucoseUnit: unit)
        switch outcome {
        case .measurement(let m):
            do {
                // Through the CLI's runner: the types it queued are announced to the sync part.
                let (samples, _) = try store.run { r in try r.records().measure(m, at: r.now, now: r.now) }
                let style = NumberStyle(environment: ctx.environment)
                return (Page.redirect("/measure", ok: Self.saved(m, at: samples.first?.start, style: style)), .deleteMeasurement(HealthJournal.key(of: samples)))
            } catch { return (Page.redirect("/measure", error: WebJournal.message(error)), nil) }
        case .problems(let problems):
            let what = MeasurementKind.formKinds[kind]?.title.lowercased() ?? (kind == "steps" ? "steps count" : "measurement")
            let view = try store.records().measurements(now: DaemonClock.now())
            let page = MeasurePage(view, charts: nil, glucoseUnit: unit, typed: Typed(kind: kind, typed: fields, problems: problems),
                                   notSaved: "Your \(what) was not saved. See the message next to the number.")
            let html = WebTemplates.render(PageFrame(title: "Measurements", path: "/measure", keys: keys, page: page), .measure)
            return (Page.respond(.init(code: 422), html), nil)
        }
    }
}

extension MeasurePage {
    /// What a save says, as a symptom's does: "Saved: blood pressure 124/80 mmHg, at 18:07."
    static func saved(_ m: ManualMeasurement, at: Timestamp?, style: NumberStyle) -> String {
        func n(_ v: Double) -> String { style.number(v, digits: 1) }
        let what: String
        switch m {
        case .bloodPressure(let s, let d): what = "blood pressure \(n(s))/\(n(d)) mmHg"
        case .heartRate(let v): what = "heart rate \(n(v)) beats a minute"
        case .oxygenSaturation(let v): what = "blood oxygen \(n(v)) %"
        case .bloodGlucose(let v, let unit): what = "blood sugar \(n(v)) \(unit)"
        case .bodyMass(let v, let unit): what = "weight \(n(v)) \(unit)"
        case .steps(let v, let from, let to):
            return "Saved: \(n(v)) steps, \(Format.local(from).suffix(5)) to \(Format.local(to).suffix(5))."
        }
        return "Saved: \(what)" + (at.map { ", at \(Format.local($0).suffix(5))." } ?? ".")
    }
}

extension MeasurementKind {
    /// The kinds by the form's `kind` field.
    static let formKinds: [String: MeasurementKind] = ["bp": .bloodPressure, "hr": .heartRate, "spo2": .oxygen, "glucose": .glucose, "weight": .weight]
}
