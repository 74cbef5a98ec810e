@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
import Hummingbird

/// Measurements typed in by hand, and shown back: each kind's latest reading, the forms, then
/// the recent readings by day (newest first), all from `HealthJournal.measurements`, the view
/// the day view's list also comes from.
enum MeasurePage {
    static func render(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        var p = Page(title: "Measurements", path: "/measure", csrf: csrf)
        p.notice(query)
        let view = try HealthJournal(context: ctx).measurements(now: DaemonClock.now())
        latest(view, &p)
        MeasureCharts.render(ctx, view, query: query, &p)
        forms(&p, glucoseUnit: view.glucoseUnit)
        recent(view, &p)
        return p.document()
    }

    /// Each kind's latest reading and when it was taken.
    static func latest(_ view: MeasurementsView, _ p: inout Page) {
        p.raw("<section class=\"card\" aria-labelledby=\"latest-h\"><h2 id=\"latest-h\">Your latest readings</h2><ul class=\"latest\" id=\"latest\">")
        for (kind, reading) in view.latest {
            p.raw("<li id=\"latest-\(kind.rawValue)\"><span class=\"ft\">"); p.text(kind.title); p.raw("</span>")
            if let r = reading {
                p.raw("<span class=\"fv\">"); p.text(r.text); p.raw("</span>")
                if let other = r.other { p.raw("<span class=\"other\">"); p.text(other); p.raw("</span>") }
                p.raw("<span class=\"when\">"); p.text(DayStrip.long(r.date) + ", " + r.time); p.raw("</span>")
            } else {
                p.raw("<span class=\"when\">None in the last \(view.periodDays) days</span>")
            }
            p.raw("</li>")
        }
        p.raw("</ul></section>")
    }

    /// The readings of the period by day, newest first.
    static func recent(_ view: MeasurementsView, _ p: inout Page) {
        p.raw("<section class=\"card\" aria-labelledby=\"recent-h\" id=\"recent\"><h2 id=\"recent-h\">Readings by day</h2>")
        if view.days.isEmpty { p.raw("<p>No readings in the last \(view.periodDays) days.</p>") }
        for day in view.days {
            p.raw("<h3>"); p.text(DayStrip.long(day.date)); p.raw("</h3><ul class=\"readings\">")
            for r in day.readings { reading(r, back: "/measure", &p) }
            p.raw("</ul>")
        }
        p.raw("</section>")
    }

    /// One reading: its time, kind and value (glucose with the other unit beside); with
    /// `back`, Change and Delete buttons that land there.
    static func reading(_ r: MeasurementReading, back: String? = nil, _ p: inout Page) {
        p.raw(back == nil ? "<li>" : "<li class=\"editable\" data-reading=\"\(Page.escape(r.key))\"><span class=\"what\">")
        p.raw("<span class=\"time\">"); p.text(r.time); p.raw("</span> <span class=\"kind\">"); p.text(r.kind.title)
        p.raw("</span> <strong>"); p.text(r.text); p.raw("</strong>")
        if let other = r.other { p.raw(" <span class=\"other\">("); p.text(other); p.raw(")</span>") }
        if let back {
            p.raw("</span>")
            Edits.buttons(&p, edit: "/measure/\(Page.percentEncode(r.key))/edit?back=\(Page.percentEncode(back))", delete: "/measure/delete",
                          fields: [("key", r.key)], what: "\(r.kind.title) \(r.text) at \(r.time)", back: back)
        }
        p.raw("</li>")
    }

    /// What was typed and what is wrong with it, when a form is shown again.
    struct Typed {
        var kind: String
        var form: Form
        var problems: [MeasurementEntry.Problem]

        func value(_ name: String, of formKind: String) -> String { formKind == kind ? form[name] ?? "" : "" }
        func error(_ name: String, of formKind: String) -> String? {
            formKind == kind ? problems.first { $0.field == name }?.message : nil
        }
    }

    /// The forms; typed numbers are text fields (a number field would drop the "%" of "97%"
    /// and read "6 2" as 62 before the server could refuse it).
    static func forms(_ p: inout Page, glucoseUnit: GlucoseUnit, typed: Typed? = nil) {
        p.raw("<h2>Add a measurement</h2><p>Type what you measured; it is stored and sent like your other data.</p>")
        func number(_ p: inout Page, _ label: String, _ name: String, _ kind: String, decimal: Bool) {
            p.field(label, name: name, value: typed?.value(name, of: kind) ?? "",
                    extra: "required autocomplete=\"off\" inputmode=\"\(decimal ? "decimal" : "numeric")\"",
                    error: typed?.error(name, of: kind))
        }
        p.raw("<h3 id=\"bp-h\">Blood pressure</h3>")
        p.form("/measure") { p in
            p.raw("<input type=\"hidden\" name=\"kind\" value=\"bp\"><div class=\"row\">")
            number(&p, "Top number (systolic, mmHg)", "systolic", "bp", decimal: false)
            number(&p, "Bottom number (diastolic, mmHg)", "diastolic", "bp", decimal: false)
            p.raw("</div><button type=\"submit\">Save blood pressure</button>")
        }
        for (kind, title, label, decimal) in [("hr", "Heart rate", "Beats per minute", false), ("spo2", "Blood oxygen", "Percent", false),
                                              ("glucose", "Blood sugar", "Blood sugar in \(glucoseUnit.rawValue)", glucoseUnit == .mmolPerL),
                                              ("weight", "Weight", "Kilograms", true)] {
            p.raw("<h3 id=\"\(kind)-h\">\(title)</h3>")
            p.form("/measure") { p in
                p.raw("<input type=\"hidden\" name=\"kind\" value=\"\(kind)\">")
                // The unit the form was shown in: a value typed in mg/dL stays mg/dL if the choice changes meanwhile.
                if kind == "glucose" { p.raw("<input type=\"hidden\" name=\"unit\" value=\"\(Page.escape(glucoseUnit.rawValue))\">") }
                number(&p, label, "value-" + kind, kind, decimal: decimal)
                p.raw("<button type=\"submit\">Save \(title.lowercased())</button>")
            }
        }
        StepsForm.render(&p, typed: typed)
    }

    /// Saves a measurement, or shows the page again with what was typed and, next to each field
    /// that needs it, what to do (status 422; nothing is stored).
    static func add(_ ctx: DaemonContext, _ form: Form, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let kind = form["kind"] ?? ""
        var fields: [String: String] = [:]
        for (name, value) in form.pairs where fields[name] == nil { fields[name] = value }
        let unit = GlucoseUnit(rawValue: form["unit"] ?? "") ?? ctx.settings.glucoseUnit
        let outcome = kind == "steps" ? try StepsForm.parse(ctx, fields) : MeasurementEntry.parse(kind: kind, fields: fields, glucoseUnit: unit)
        switch outcome {
        case .measurement(let m):
            do {
                // Through the CLI's runner: the types it queued are announced to the sync part.
                let (samples, _) = try JournalRunner.run(context: ctx) { r in try r.records().measure(m, at: r.now, now: r.now) }
                return (Page.redirect("/measure", ok: "Saved."), .deleteMeasurement(HealthJournal.key(of: samples)))
            } catch { return (Page.redirect("/measure", error: WebJournal.message(error)), nil) }
        case .problems(let problems):
            var p = Page(title: "Measurements", path: "/measure", csrf: keys)
            let what = MeasurementKind.formKinds[kind]?.title.lowercased() ?? (kind == "steps" ? "steps count" : "measurement")
            p.raw("<p class=\"notice error\" role=\"alert\">Your \(what) was not saved. See the message next to the number.</p>")
            let view = try HealthJournal(context: ctx).measurements(now: DaemonClock.now())
            latest(view, &p)
            forms(&p, glucoseUnit: unit, typed: Typed(kind: kind, form: form, problems: problems))
            recent(view, &p)
            return (Page.respond(.init(code: 422), p.document()), nil)
        }
    }
}

extension MeasurementKind {
    /// The kinds by the form's `kind` field.
    static let formKinds: [String: MeasurementKind] = ["bp": .bloodPressure, "hr": .heartRate, "spo2": .oxygen, "glucose": .glucose, "weight": .weight]
}
