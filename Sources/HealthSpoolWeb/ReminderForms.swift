import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The reminders page: the list, each rule in words and when it next rings ("Every other day at
/// 08:00 · Next: tomorrow 08:00"), and one form to add or change a reminder with every repeat
/// rule the CLI accepts (`RepeatFields`). The same use cases as `healthspool remind`
/// (`HealthJournal.addReminder`, `editReminder`, `reminderRows`).
enum ReminderForms {
    /// What a reminder form holds: typed values, kept when it comes back with errors.
    struct Typed {
        var name = ""
        var times = "08:00"
        var start: String
        var med = ""
        var repeatFields: RepeatFields
        var problems = Problems()

        init(start: CivilDate) {
            self.start = start.description
            repeatFields = RepeatFields(rule: RecurrenceRule(.daily), start: start)
        }

        init(_ r: Reminder) {
            name = r.name
            times = r.times.map(\.description).joined(separator: ", ")
            start = r.start.description
            med = r.medicationID.map(String.init) ?? ""
            repeatFields = RepeatFields(rule: r.rule, start: r.start)
        }

        init(_ form: Fields) {
            name = form.name ?? ""
            times = form.time ?? ""
            start = form.start ?? ""
            med = form.med ?? ""
            repeatFields = RepeatFields(form.repeating)
        }
    }

    /// The add and change forms' fields: the reminder changed (`id`, the change form's), what
    /// to remember, its times and first day as typed (a typo is said next to the field), the
    /// medication a "Taken" logs (`med`, an id or empty), and the repeat choice
    /// (`RepeatFields.Sent`, one `weekday` per ticked box). All optional: a field left out is
    /// read as empty.
    struct Fields: ListFields, Sendable {
        var id: String?
        var name: String?
        var time: String?
        var start: String?
        var med: String?
        var repeating: RepeatFields.Sent

        static let lists = RepeatFields.Sent.lists

        private enum CodingKeys: CodingKey { case id, name, time, start, med }

        init(from decoder: any Decoder) throws {
            let form = try decoder.container(keyedBy: CodingKeys.self)
            id = try form.decodeIfPresent(String.self, forKey: .id)
            name = try form.decodeIfPresent(String.self, forKey: .name)
            time = try form.decodeIfPresent(String.self, forKey: .time)
            start = try form.decodeIfPresent(String.self, forKey: .start)
            med = try form.decodeIfPresent(String.self, forKey: .med)
            repeating = try RepeatFields.Sent(from: decoder)
        }
    }

    /// The add or change form (`reminder-form.mustache`).
    struct FormView: Sendable {
        struct Med: Sendable {
            let id: Int64
            let name: String
            let selected: Bool
        }

        let action: String
        /// The reminder changed; nil on the add form.
        let reminderID: Int64?
        let nameField: Field
        let timeField: Field
        let repeatFields: RepeatFields.View
        let startField: Field
        let meds: [Med]
        let hasMeds: Bool
        let button: String

        init(action: String, id: Int64?, typed: Typed, meds: [Medication], button: String) {
            self.action = action
            reminderID = id
            var focus = Field.Focus()
            nameField = Field(label: "What to remember", name: "name", value: typed.name, hint: "For example: Take vitamin D",
                              error: typed.problems["name"], focus: &focus)
            timeField = Field(label: "Time", name: "time", value: typed.times, short: true,
                              hint: "Hours and minutes, for example 08:00. For several times: 08:00, 20:00", error: typed.problems["time"], focus: &focus)
            repeatFields = typed.repeatFields.view(onceAllowed: false, problems: typed.problems, focus: &focus)
            startField = Field(label: "First day", name: "start", value: typed.start, autocompleteOff: false,
                               hint: "Every few days and every few weeks count from this day.", error: typed.problems["start"], focus: &focus)
            self.meds = meds.map { Med(id: $0.id, name: $0.name, selected: typed.med == String($0.id)) }
            hasMeds = !meds.isEmpty
            self.button = button
        }
    }

    /// The reminders page (`reminders.mustache`).
    struct ListPage: Sendable {
        struct Item: Sendable {
            let id: Int64
            let name: String
            /// The medication a "Taken" logs, by name.
            let medication: String?
            let words: String
            let next: String
        }

        let refused: String?
        let items: [Item]
        let hasItems: Bool
        let form: FormView

        init(_ view: RemindersView, typed: Typed?) {
            refused = typed?.problems.isEmpty == false ? "The reminder was not saved." : nil
            items = view.rows.map { Item(id: $0.reminder.id, name: $0.reminder.name, medication: $0.medication, words: $0.words, next: $0.nextWords) }
            hasItems = !items.isEmpty
            form = FormView(action: "/reminders/add", id: nil, typed: typed ?? Typed(start: view.today), meds: view.medications, button: "Add reminder")
        }
    }

    /// The page that changes one reminder (`reminder-edit.mustache`); without a form, it says
    /// the reminder is not there any more.
    struct EditPage: Sendable {
        let refused: String?
        let form: FormView?

        init(_ view: ReminderEditView, typed: Typed?) {
            refused = typed?.problems.isEmpty == false ? "The reminder was not changed." : nil
            form = view.reminder.map { r in
                FormView(action: "/reminders/edit", id: r.id, typed: typed ?? Typed(r), meds: view.medications, button: "Save changes")
            }
        }
    }

    static func page(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let view = try store.records().remindersView(now: DaemonClock.now())
        return render(view, query: query, csrf: csrf, typed: nil)
    }

    static func render(_ view: RemindersView, query: Form, csrf: FormKeys, typed: Typed?) -> String {
        WebTemplates.render(PageFrame(title: "Reminders", path: "/reminders", keys: csrf, notice: Notice(query, back: "/reminders"),
                                      page: ListPage(view, typed: typed)), .reminders)
    }

    /// What a posted form asks for, or the problems to show next to its fields.
    static func read(_ form: Fields, journal: HealthJournal, now: Timestamp) -> (Typed, (String, [TimeOfDay], RecurrenceRule, CivilDate, String?)?) {
        var typed = Typed(form)
        if typed.name.trimmingSpaces.isEmpty { typed.problems["name"] = "Type what to remember, for example Take vitamin D." }
        let times = try? TimeOfDay.list(parsing: typed.times)
        if times == nil { typed.problems["time"] = "Type the time as hours and minutes, for example 08:00." }
        let start = CivilDate(parsing: typed.start.trimmingSpaces)
        if start == nil { typed.problems["start"] = "Choose the first day, for example today." }
        var rule: RecurrenceRule?
        switch typed.repeatFields.rule(onceAllowed: false) {
        case .success(let r): rule = r
        case .failure(let problems): typed.problems.merge(problems)
        }
        guard typed.problems.isEmpty, let times, let start, let rule else { return (typed, nil) }
        return (typed, (typed.name, times, rule, start, typed.med.isEmpty ? nil : typed.med))
    }

    /// Adds a reminder; Undo removes it.
    static func add(_ ctx: Configuration, _ store: LentStore, _ form: Fields, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let journal = try store.records()
        let now = DaemonClock.now()
        let (typed, asked) = read(form, journal: journal, now: now)
        guard let (name, times, rule, start, med) = asked else {
            return (Page.respond(.init(code: 422), render(try journal.remindersView(now: now), query: Form(""), csrf: keys, typed: typed)), nil)
        }
        do {
            let r = try journal.addReminder(name: name, kind: nil, times: times, rule: rule, start: start, medication: med, now: now)
            return (Page.redirect("/reminders", ok: "Reminder set: \(r.name). \(RecurrenceWords.rule(r.rule, times: r.times, start: r.start))."),
                    .removeReminder(r.id))
        } catch { return (Page.redirect("/reminders", error: WebJournal.message(error)), nil) }
    }

    static func editPage(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        editDocument(try store.records().reminderEditView(id: Int64(query["id"] ?? "")), typed: nil, csrf: csrf)
    }

    static func editDocument(_ view: ReminderEditView, typed: Typed?, csrf: FormKeys) -> String {
        WebTemplates.render(PageFrame(title: "Change a reminder", path: "/reminders", keys: csrf, page: EditPage(view, typed: typed)), .reminderEdit)
    }

    /// Changes the reminder, or shows the form again with what was typed and what to change
    /// (422); Undo puts it back as it was.
    static func edit(_ ctx: Configuration, _ store: LentStore, _ form: Fields, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let journal = try store.records()
        let now = DaemonClock.now()
        guard let id = Int64(form.id ?? ""), let old = try? journal.reminder(id) else {
            return (Page.redirect("/reminders", error: "This reminder is not there any more."), nil)
        }
        let (typed, asked) = read(form, journal: journal, now: now)
        guard let (name, times, rule, start, med) = asked else {
            return (Page.respond(.init(code: 422), editDocument(ReminderEditView(reminder: old, medications: try journal.medications()), typed: typed,
                                                                csrf: keys)), nil)
        }
        do {
            let r = try journal.editReminder(id, name: name, times: times, rule: rule, start: start, medication: med, now: now)
            return (Page.redirect("/reminders", ok: "Changed: \(r.name). \(RecurrenceWords.rule(r.rule, times: r.times, start: r.start))."),
                    r == old ? nil : .reviseReminder(old))
        } catch { return (Page.redirect("/reminders", error: WebJournal.message(error)), nil) }
    }
}
