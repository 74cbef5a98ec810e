import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Changing and deleting a symptom entry in the browser, through the CLI's use cases
/// (`JournalUseCases.editSymptom`, `deleteSymptom`): how bad it was, when, the part of the day,
/// the group, what helped or made it worse, the note. Each lands back with an Undo.
enum SymptomEdits {
    /// The edit page of one entry.
    static func page(_ ctx: DaemonContext, id: String, query: Form, keys: FormKeys) throws -> String {
        let back = Edits.back(query, else: "/journal")
        let journal = try WebJournal.open(ctx)
        let e: SymptomEntry
        do { e = try journal.symptomEntry(id) } catch {
            var p = Page(title: "Change a symptom", path: "/journal", csrf: keys)
            p.raw("<p class=\"notice error\" role=\"alert\">This entry cannot be changed: it was deleted, or the address is not right.</p>")
            p.raw("<p><a class=\"button\" href=\"\(Page.escape(back))\">Back</a></p>")
            return p.document()
        }
        let categories = try journal.categories()
        let factors = try journal.factorLists()
        let local = e.at.iso8601Local
        var p = Page(title: "Change: \(e.symptom)", path: "/journal", csrf: keys)
        p.notice(query)
        p.form("/symptoms/edit") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(e.id)\">" + Edits.backField(back))
            p.raw("<fieldset><legend>How bad was it?</legend>")
            for (s, word, explain) in SymptomPages.severityWords {
                let id = "sev-\(s.description)"
                p.raw("<div class=\"check\"><input type=\"radio\" id=\"\(id)\" name=\"severity\" value=\"\(s.description)\"\(s == e.severity ? " checked" : "")>")
                p.raw("<label for=\"\(id)\">\(word)<span class=\"hint\">\(explain)</span></label></div>")
            }
            p.raw("</fieldset><div class=\"row\">")
            p.field("Date", name: "date", type: "date", value: String(local.prefix(10)))
            p.field("Time", name: "time", type: "time", value: String(local.dropFirst(11).prefix(5)))
            p.raw("</div><div class=\"field\"><label for=\"f-when\">Part of the day</label><select id=\"f-when\" name=\"when\">")
            for w in PartOfDay.allCases {
                p.raw("<option value=\"\(w.rawValue)\"\(w == e.timeOfDay ? " selected" : "")>\(w.rawValue.capitalized)</option>")
            }
            p.raw("</select></div>")
            SymptomPages.datalist(&p, "categories", categories.map(\.name))
            p.field("Group (category)", name: "category", value: e.category, extra: "list=\"categories\" autocomplete=\"off\"")
            SymptomPages.datalist(&p, "relieving", factors.relieving)
            p.field("What made it better", name: "relieved", value: e.relievedBy.joined(separator: ", "), extra: "list=\"relieving\" autocomplete=\"off\"",
                    hint: "Separate with commas.")
            SymptomPages.datalist(&p, "aggravating", factors.aggravating)
            p.field("What made it worse", name: "aggravated", value: e.aggravatedBy.joined(separator: ", "), extra: "list=\"aggravating\" autocomplete=\"off\"",
                    hint: "Separate with commas.")
            p.raw("<div class=\"field\"><label for=\"f-note\">Note</label><textarea id=\"f-note\" name=\"note\" rows=\"3\">")
            p.text(e.note ?? ""); p.raw("</textarea></div>")
            p.raw("<p class=\"row\"><button type=\"submit\" id=\"save-changes\">Save changes</button>")
            p.raw("<a class=\"button secondary\" href=\"\(Page.escape(back))\">Back without changing</a></p>")
        }
        p.form("/symptoms/delete", cssClass: "card edit-delete") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(e.id)\">" + Edits.backField(back))
            p.raw("<p>Logged by mistake? Delete it. You can undo that.</p><button type=\"submit\" class=\"secondary\" id=\"delete-entry\">Delete this entry</button>")
        }
        return p.document()
    }

    /// Saves the changed fields; lands on `back` with Undo (the entry as it was).
    static func save(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let back = Edits.back(form, else: "/journal")
        let id = form["id"] ?? ""
        do {
            return try JournalRunner.run(context: ctx) { r in
                let old = try r.entries.symptomEntry(id)
                var changes = SymptomChanges()
                if let s = form["severity"].flatMap(Severity.init(parsing:)), s != old.severity { changes.severity = s }
                changes.at = try Edits.time(date: form["date"], time: form["time"], was: old.at.iso8601Local, try r.records(), now: r.now)
                if let w = form["when"].flatMap(PartOfDay.init(rawValue:)), w != old.timeOfDay { changes.when = w }
                if let c = form["category"]?.trimmingSpaces, !c.isEmpty, c != old.category { changes.category = c }
                func list(_ name: String) -> [String]? {
                    form[name].map { $0.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty } }
                }
                if let l = list("relieved"), l != old.relievedBy { changes.relievedBy = l }
                if let l = list("aggravated"), l != old.aggravatedBy { changes.aggravatedBy = l }
                if let n = form["note"], n.trimmingSpaces != (old.note ?? "") { changes.note = n.trimmingSpaces }
                let e = try r.entries.editSymptom(id, changes)
                guard e != old else { return (Page.redirect(back, ok: "Nothing was changed."), nil) }
                return (Page.redirect(back, ok: "Changed: \(e.symptom), \(e.severity), at \(String(e.at.iso8601Local.dropFirst(11).prefix(5)))."),
                        JournalUndo.restoreSymptom(old))
            }
        } catch {
            let edit = "/symptoms/\(Page.percentEncode(id))/edit?back=\(Page.percentEncode(back))"
            return (Page.redirect(edit, error: "Not changed: \(WebJournal.message(error))"), nil)
        }
    }

    /// Deletes the entry; lands on `back` with Undo (the entry back, same id).
    static func delete(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let back = Edits.back(form, else: "/journal")
        do {
            return try JournalRunner.run(context: ctx) { r in
                let old = try r.entries.symptomEntry(form["id"] ?? "")
                let e = try r.entries.deleteSymptom(old.id.description)
                return (Page.redirect(back, ok: "Deleted: \(e.symptom), \(e.severity), at \(String(e.at.iso8601Local.dropFirst(11).prefix(5)))."),
                        JournalUndo.restoreSymptom(old))
            }
        } catch {
            return (Page.redirect(back, error: "Not deleted: \(WebJournal.message(error))"), nil)
        }
    }

    /// A day's symptom entries as a list, each with Change and Delete (landing back on `back`).
    static func list(_ entries: [SymptomEntry], id: String, back: String, _ p: inout Page) {
        p.raw(WebTemplates.partial("entries", EntryList.symptoms(entries, id: id, back: back), keys: p.keys))
    }
}
