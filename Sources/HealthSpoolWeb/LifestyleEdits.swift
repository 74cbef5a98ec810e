import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Changing and deleting a lifestyle entry in the browser (`HealthJournal.editLifestyle`,
/// `deleteLifestyle`, the same as `healthspool lifestyle edit` and `delete`), each with Undo.
/// The page (`/lifestyle/ID/edit`, `lifestyle-edit.mustache`) shows the entry as
/// `HealthJournal.lifestyleEntry` reads it.
struct LifestyleEdits: Sendable {
    /// The change form's fields (`lifestyle-edit.mustache`); a field left out is one not changed.
    struct Fields: Decodable, Sendable {
        var id: String?
        var back: String?
        var factor: String?
        var amount: String?
        var unit: String?
        var level: String?
        var date: String?
        var time: String?
        var when: String?
        var note: String?
    }

    /// A choice of a list.
    struct Choice: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    let id: String
    /// Where the form lands.
    let back: String
    let factorField: Field
    let amountField: Field
    let unitField: Field
    let levels: [Choice]
    /// The local date ("2026-11-26") and time ("09:15").
    let date: String
    let time: String
    let parts: [Choice]
    /// The note, "" when it has none.
    let note: String

    init(_ e: LifestyleEntry, back: String) {
        id = e.id.description
        self.back = back
        var amount = "", unit = "", level: LifestyleLevel?
        switch e.measure {
        case let .amount(v, u)?: amount = SampleIdentity.canonicalNumber(v); unit = u
        case let .level(l)?: level = l
        case nil: break
        }
        var focus = Field.Focus()
        factorField = Field(label: "What", name: "factor", value: e.factor, focus: &focus)
        amountField = Field(label: "How much (optional)", name: "amount", value: amount, required: false, inputmode: "decimal", focus: &focus)
        unitField = Field(label: "Unit", name: "unit", value: unit, required: false, hint: "For example: cups, minutes.", focus: &focus)
        levels = LifestyleLevel.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == level) }
        let local = e.at.iso8601Local
        date = String(local.prefix(10))
        time = String(local.dropFirst(11).prefix(5))
        parts = PartOfDay.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == e.timeOfDay) }
        note = e.note ?? ""
    }

    static func page(store: LentStore, id: String, query: Form, keys: FormKeys) throws -> String {
        let back = Page.back(query, else: "/day")
        let e: LifestyleEntry
        do { e = try store.journal().lifestyleEntry(id) } catch {
            return EntryGone.render(title: "Change a lifestyle entry", path: "/day", keys: keys,
                                    gone: "This entry cannot be changed: it was deleted, or the address is not right.", back: back, backLabel: "Back")
        }
        return WebTemplates.render(PageFrame(title: "Change: \(e.factor)", path: "/lifestyle", keys: keys, notice: Notice(query, back: "/day"),
                                             page: LifestyleEdits(e, back: back)), .lifestyleEdit)
    }

    static func save(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/day")
        let id = form.id ?? ""
        do {
            return try store.run { r in
                let old = try r.entries.lifestyleEntry(id)
                var changes = LifestyleChanges()
                if let f = form.factor?.trimmingSpaces, f != old.factor { changes.factor = f }
                let amount = (form.amount ?? "").trimmingSpaces
                var measure: LifestyleMeasure?
                if !amount.isEmpty {
                    guard let v = MeasurementEntry.plainNumber(amount) else {
                        throw Page.Problem("Type only the number for how much, for example 2.")
                    }
                    measure = .amount(v, unit: (form.unit ?? "").trimmingSpaces)
                } else if let l = form.level.flatMap(LifestyleLevel.init(parsing:)) {
                    measure = .level(l)
                }
                if measure != old.measure { changes.measure = .some(measure) }
                changes.at = try r.records().time(date: form.date, time: form.time, was: old.at)
                if let w = form.when.flatMap(PartOfDay.init(rawValue:)), w != old.timeOfDay { changes.when = w }
                if let n = form.note, n.trimmingSpaces != (old.note ?? "") { changes.note = n.trimmingSpaces }
                let e = try r.entries.editLifestyle(id, changes)
                guard e != old else { return (Page.redirect(back, ok: "Nothing was changed."), nil) }
                return (Page.redirect(back, ok: "Changed: \(e.factor)\(e.measure.map { " – \($0)" } ?? "")."), JournalUndo.restoreLifestyle(old))
            }
        } catch {
            let edit = "/lifestyle/\(Page.percentEncode(id))/edit?back=\(Page.percentEncode(back))"
            return (Page.redirect(edit, error: "Not changed: \(WebJournal.message(error))"), nil)
        }
    }

    static func delete(_ ctx: Configuration, _ store: LentStore, _ form: EntryFields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/day")
        do {
            return try store.run { r in
                let old = try r.entries.lifestyleEntry(form.id ?? "")
                let e = try r.entries.deleteLifestyle(old.id.description)
                return (Page.redirect(back, ok: "Deleted: \(e.factor)."), JournalUndo.restoreLifestyle(old))
            }
        } catch {
            return (Page.redirect(back, error: "Not deleted: \(WebJournal.message(error))"), nil)
        }
    }
}
