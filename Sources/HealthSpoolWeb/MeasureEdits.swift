import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Correcting a measurement in the browser: its numbers changed (`HealthJournal.editMeasurement`)
/// or the reading deleted (`deleteMeasurement`), each with Undo. The numbers are checked as the
/// measurement forms check them (`MeasurementEntry`).
enum MeasureEdits {
    /// The form's `kind` of each measurement kind, and its fields.
    static let formKind: [MeasurementKind: String] = [.bloodPressure: "bp", .heartRate: "hr", .oxygen: "spo2", .glucose: "glucose", .weight: "weight"]

    static func page(_ ctx: DaemonContext, key: String, query: Form, keys: FormKeys) throws -> String {
        let back = Edits.back(query, else: "/measure")
        let journal = try HealthJournal(context: ctx)
        guard let r = try? journal.measurement(key) else {
            var p = Page(title: "Change a measurement", path: "/measure", csrf: keys)
            p.raw("<p class=\"notice error\" role=\"alert\">This reading cannot be changed: it was deleted, or the address is not right.</p>")
            p.raw("<p><a class=\"button\" href=\"\(Page.escape(back))\">Back</a></p>")
            return p.document()
        }
        let unit = ctx.settings.glucoseUnit
        var p = Page(title: "Change: \(r.kind.title.lowercased())", path: "/measure", csrf: keys)
        p.notice(query)
        p.raw("<p>"); p.text("Measured \(DayStrip.long(r.date)), \(r.time): \(r.text).") ; p.raw("</p>")
        let kind = formKind[r.kind] ?? ""
        p.form("/measure/edit") { p in
            p.raw("<input type=\"hidden\" name=\"key\" value=\"\(Page.escape(r.parts.first.map { "\($0.startMillis).\($0.id)" } ?? key))\">")
            p.raw("<input type=\"hidden\" name=\"kind\" value=\"\(kind)\">" + Edits.backField(back))
            let extra = "required autocomplete=\"off\" inputmode=\"decimal\""
            switch r.kind {
            case .bloodPressure:
                p.raw("<div class=\"row\">")
                p.field("Top number (systolic, mmHg)", name: "systolic", value: SampleIdentity.canonicalNumber(r.value), extra: extra)
                p.field("Bottom number (diastolic, mmHg)", name: "diastolic", value: r.diastolic.map(SampleIdentity.canonicalNumber) ?? "", extra: extra)
                p.raw("</div>")
            case .glucose:
                p.raw("<input type=\"hidden\" name=\"unit\" value=\"\(Page.escape(unit.rawValue))\">")
                let shown = unit == .mgPerDL ? r.value.rounded() : (unit.value(fromMgPerDL: r.value) * 10).rounded() / 10
                p.field("Blood sugar in \(unit.rawValue)", name: "value-glucose", value: SampleIdentity.canonicalNumber(shown), extra: extra)
            case .heartRate: p.field("Beats per minute", name: "value-hr", value: SampleIdentity.canonicalNumber(r.value), extra: extra)
            case .oxygen: p.field("Percent", name: "value-spo2", value: SampleIdentity.canonicalNumber(r.value <= 1 ? r.value * 100 : r.value), extra: extra)
            case .weight: p.field("Kilograms", name: "value-weight", value: SampleIdentity.canonicalNumber((r.value * 10).rounded() / 10), extra: extra)
            }
            p.raw("<p class=\"row\"><button type=\"submit\" id=\"save-changes\">Save changes</button>")
            p.raw("<a class=\"button secondary\" href=\"\(Page.escape(back))\">Back without changing</a></p>")
        }
        p.form("/measure/delete", cssClass: "card edit-delete") { p in
            p.raw("<input type=\"hidden\" name=\"key\" value=\"\(Page.escape(key))\">" + Edits.backField(back))
            p.raw("<p>Typed in by mistake? Delete it. You can undo that.</p><button type=\"submit\" class=\"secondary\" id=\"delete-entry\">Delete this reading</button>")
        }
        return p.document()
    }

    static func save(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let back = Edits.back(form, else: "/measure")
        let key = form["key"] ?? ""
        let edit = "/measure/\(Page.percentEncode(key))/edit?back=\(Page.percentEncode(back))"
        var fields: [String: String] = [:]
        for (name, value) in form.pairs where fields[name] == nil { fields[name] = value }
        let unit = GlucoseUnit(rawValue: form["unit"] ?? "") ?? ctx.settings.glucoseUnit
        switch MeasurementEntry.parse(kind: form["kind"] ?? "", fields: fields, glucoseUnit: unit) {
        case .problems(let problems):
            return (Page.redirect(edit, error: "Not changed: " + problems.map(\.message).joined(separator: " ")), nil)
        case .measurement(let m):
            do {
                return try JournalRunner.run(context: ctx) { r in
                    let journal = try r.records()
                    let (old, newKey) = try journal.editMeasurement(key, to: m, now: r.now)
                    guard newKey != key else { return (Page.redirect(back, ok: "Nothing was changed."), nil) }
                    let new = try journal.measurement(newKey)
                    return (Page.redirect(back, ok: "Changed: \(new.kind.title.lowercased()) \(new.text) (was \(old.text))."),
                            JournalUndo.revertMeasurement(new: newKey, old: key))
                }
            } catch { return (Page.redirect(edit, error: "Not changed: \(WebJournal.message(error))"), nil) }
        }
    }

    static func delete(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let back = Edits.back(form, else: "/measure")
        let key = form["key"] ?? ""
        do {
            let m = try JournalRunner.run(context: ctx) { r in try r.records().deleteMeasurement(key) }
            return (Page.redirect(back, ok: "Deleted: \(m.kind.title.lowercased()) \(m.text) of \(m.time)."), .restoreMeasurement(key))
        } catch { return (Page.redirect(back, error: "Not deleted: \(WebJournal.message(error))"), nil) }
    }
}
