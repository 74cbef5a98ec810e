import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Changing and deleting a lifestyle entry in the browser (`JournalUseCases.editLifestyle`,
/// `deleteLifestyle`, the same as `healthspool lifestyle edit` and `delete`), each with Undo.
enum LifestyleEdits {
    static func page(_ ctx: DaemonContext, id: String, query: Form, keys: FormKeys) throws -> String {
        let back = Edits.back(query, else: "/day")
        let journal = try WebJournal.open(ctx)
        let e: LifestyleEntry
        do { e = try journal.lifestyleEntry(id) } catch {
            var p = Page(title: "Change a lifestyle entry", path: "/day", csrf: keys)
            p.raw("<p class=\"notice error\" role=\"alert\">This entry cannot be changed: it was deleted, or the address is not right.</p>")
            p.raw("<p><a class=\"button\" href=\"\(Page.escape(back))\">Back</a></p>")
            return p.document()
        }
        let local = e.at.iso8601Local
        var p = Page(title: "Change: \(e.factor)", path: "/day", csrf: keys)
        p.notice(query)
        p.form("/lifestyle/edit") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(e.id)\">" + Edits.backField(back))
            p.field("What", name: "factor", value: e.factor, extra: "required autocomplete=\"off\"")
            var amount = "", unit = "", level: LifestyleLevel?
            switch e.measure {
            case let .amount(v, u)?: amount = SampleIdentity.canonicalNumber(v); unit = u
            case let .level(l)?: level = l
            case nil: break
            }
            p.raw("<div class=\"row\">")
            p.field("How much (optional)", name: "amount", value: amount, extra: "inputmode=\"decimal\" autocomplete=\"off\"")
            p.field("Unit", name: "unit", value: unit, extra: "autocomplete=\"off\"", hint: "For example: cups, minutes.")
            p.raw("</div><div class=\"field\"><label for=\"f-level\">Or a level</label><select id=\"f-level\" name=\"level\"><option value=\"\">No level</option>")
            for l in LifestyleLevel.allCases { p.raw("<option value=\"\(l.rawValue)\"\(l == level ? " selected" : "")>\(l.rawValue.capitalized)</option>") }
            p.raw("</select></div><div class=\"row\">")
            p.field("Date", name: "date", type: "date", value: String(local.prefix(10)))
            p.field("Time", name: "time", type: "time", value: String(local.dropFirst(11).prefix(5)))
            p.raw("</div><div class=\"field\"><label for=\"f-when\">Part of the day</label><select id=\"f-when\" name=\"when\">")
            for w in PartOfDay.allCases { p.raw("<option value=\"\(w.rawValue)\"\(w == e.timeOfDay ? " selected" : "")>\(w.rawValue.capitalized)</option>") }
            p.raw("</select></div>")
            p.raw("<div class=\"field\"><label for=\"f-note\">Note</label><textarea id=\"f-note\" name=\"note\" rows=\"3\">"); p.text(e.note ?? ""); p.raw("</textarea></div>")
            p.raw("<p class=\"row\"><button type=\"submit\" id=\"save-changes\">Save changes</button>")
            p.raw("<a class=\"button secondary\" href=\"\(Page.escape(back))\">Back without changing</a></p>")
        }
        p.form("/lifestyle/delete", cssClass: "card edit-delete") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(e.id)\">" + Edits.backField(back))
            p.raw("<p>Logged by mistake? Delete it. You can undo that.</p><button type=\"submit\" class=\"secondary\" id=\"delete-entry\">Delete this entry</button>")
        }
        return p.document()
    }

    static func save(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let back = Edits.back(form, else: "/day")
        let id = form["id"] ?? ""
        do {
            return try JournalRunner.run(context: ctx) { r in
                let old = try r.entries.lifestyleEntry(id)
                var changes = LifestyleChanges()
                if let f = form["factor"]?.trimmingSpaces, f != old.factor { changes.factor = f }
                let amount = (form["amount"] ?? "").trimmingSpaces
                var measure: LifestyleMeasure?
                if !amount.isEmpty {
                    guard let v = MeasurementEntry.plainNumber(amount) else {
                        throw Edits.Problem("Type only the number for how much, for example 2.")
                    }
                    measure = .amount(v, unit: (form["unit"] ?? "").trimmingSpaces)
                } else if let l = form["level"].flatMap(LifestyleLevel.init(parsing:)) {
                    measure = .level(l)
                }
                if measure != old.measure { changes.measure = .some(measure) }
                changes.at = try Edits.time(date: form["date"], time: form["time"], was: old.at.iso8601Local, try r.records(), now: r.now)
                if let w = form["when"].flatMap(PartOfDay.init(rawValue:)), w != old.timeOfDay { changes.when = w }
                if let n = form["note"], n.trimmingSpaces != (old.note ?? "") { changes.note = n.trimmingSpaces }
                let e = try r.entries.editLifestyle(id, changes)
                guard e != old else { return (Page.redirect(back, ok: "Nothing was changed."), nil) }
                return (Page.redirect(back, ok: "Changed: \(e.factor)\(e.measure.map { " – \($0)" } ?? "")."), JournalUndo.restoreLifestyle(old))
            }
        } catch {
            let edit = "/lifestyle/\(Page.percentEncode(id))/edit?back=\(Page.percentEncode(back))"
            return (Page.redirect(edit, error: "Not changed: \(WebJournal.message(error))"), nil)
        }
    }

    static func delete(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let back = Edits.back(form, else: "/day")
        do {
            return try JournalRunner.run(context: ctx) { r in
                let old = try r.entries.lifestyleEntry(form["id"] ?? "")
                let e = try r.entries.deleteLifestyle(old.id.description)
                return (Page.redirect(back, ok: "Deleted: \(e.factor)."), JournalUndo.restoreLifestyle(old))
            }
        } catch {
            return (Page.redirect(back, error: "Not deleted: \(WebJournal.message(error))"), nil)
        }
    }

    /// A day's lifestyle entries, each with Change and Delete.
    static func list(_ entries: [LifestyleEntry], back: String, _ p: inout Page) {
        p.raw(WebTemplates.partial("entries", EntryList.lifestyle(entries, back: back), keys: p.keys))
    }
}
