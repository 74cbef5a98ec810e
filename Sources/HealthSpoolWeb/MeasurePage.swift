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
        forms(&p)
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
            for r in day.readings { reading(r, &p) }
            p.raw("</ul>")
        }
        p.raw("</section>")
    }

    /// One reading: its time, kind and value (glucose with the other unit beside).
    static func reading(_ r: MeasurementReading, _ p: inout Page) {
        p.raw("<li><span class=\"time\">"); p.text(r.time); p.raw("</span> <span class=\"kind\">"); p.text(r.kind.title)
        p.raw("</span> <strong>"); p.text(r.text); p.raw("</strong>")
        if let other = r.other { p.raw(" <span class=\"other\">("); p.text(other); p.raw(")</span>") }
        p.raw("</li>")
    }

    static func forms(_ p: inout Page) {
        p.raw("<h2>Add a measurement</h2><p>Type what you measured; it is stored and sent like your other data.</p>")
        p.raw("<h3>Blood pressure</h3>")
        p.form("/measure") { p in
            p.raw("<input type=\"hidden\" name=\"kind\" value=\"bp\"><div class=\"row\">")
            p.field("Upper number (systolic, mmHg)", name: "systolic", type: "number", extra: "required inputmode=\"numeric\"")
            p.field("Lower number (diastolic, mmHg)", name: "diastolic", type: "number", extra: "required inputmode=\"numeric\"")
            p.raw("</div><button type=\"submit\">Save blood pressure</button>")
        }
        for (kind, title, label, unit) in [("hr", "Heart rate", "Beats per minute", ""), ("spo2", "Blood oxygen", "Percent", ""),
                                           ("glucose", "Blood sugar", "mmol/L", "mmol/L")] {
            p.raw("<h3>\(title)</h3>")
            p.form("/measure") { p in
                p.raw("<input type=\"hidden\" name=\"kind\" value=\"\(kind)\"><input type=\"hidden\" name=\"unit\" value=\"\(unit)\">")
                p.field(label, name: "value-" + kind, type: "number", extra: "required step=\"any\"")
                p.raw("<button type=\"submit\">Save \(title.lowercased())</button>")
            }
        }
    }

    static func add(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        let kind = form["kind"] ?? ""
        func number(_ name: String) -> Double? { form[name].flatMap { Double($0.trimmingSpaces) } }
        let m: ManualMeasurement
        switch kind {
        case "bp":
            guard let s = number("systolic"), let d = number("diastolic") else { return Page.redirect("/measure", error: "Type both numbers.") }
            m = .bloodPressure(systolic: s, diastolic: d)
        case "hr": guard let v = number("value-hr") else { return Page.redirect("/measure", error: "Type a number.") }; m = .heartRate(v)
        case "spo2": guard let v = number("value-spo2") else { return Page.redirect("/measure", error: "Type a number.") }; m = .oxygenSaturation(v)
        case "glucose": guard let v = number("value-glucose") else { return Page.redirect("/measure", error: "Type a number.") }; m = .bloodGlucose(v, unit: "mmol/L")
        default: return Page.redirect("/measure", error: "Unknown measurement.")
        }
        do {
            // Through the CLI's runner: the types it queued are announced to the sync part.
            _ = try JournalRunner.run(context: ctx) { r in try r.records().measure(m, at: r.now, now: r.now) }
            return Page.redirect("/measure", ok: "Saved.")
        } catch { return Page.redirect("/measure", error: WebJournal.message(error)) }
    }
}
