import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Goals in the browser: every goal with how often it applies, and a form to add one — one-off
/// or repeating (`RepeatFields`), checked off by hand or measured from the data ("10,000 steps a
/// day") — and to remove one. The same use cases as `healthspool goal` (`HealthJournal.addGoal`,
/// `removeGoal`, `goals(on:)`).
enum GoalForms {
    /// The measured kinds offered, by registry name: what the day's data adds up to.
    static let measured: [(type: String, words: String, example: String)] = [
        ("stepCount", "Steps", "10000"), ("exerciseTime", "Exercise minutes", "30"), ("standHours", "Stand hours", "12"),
        ("flightsClimbed", "Flights climbed", "10"), ("distanceWalkingRunning", "Walking + running distance (km)", "5"),
        ("activeEnergyBurned", "Active energy (kcal)", "500"),
    ]

    /// What the form holds: typed values, kept when it comes back with errors.
    struct Typed {
        var name = ""
        var type = ""
        var target = ""
        var repeatFields: RepeatFields
        var problems = Problems()

        init(today: CivilDate) { repeatFields = RepeatFields(rule: nil, start: today) }
        init(_ form: Fields) {
            name = form.name ?? ""
            type = form.type ?? ""
            target = form.target ?? ""
            repeatFields = RepeatFields(form.repeating)
        }
    }

    /// The add form's fields: the goal's name, what a measured goal counts (`type`, a registry
    /// name or empty) and its `target` as typed (a typo is said next to the field, never a 400),
    /// and the repeat choice (`RepeatFields.Sent`, one `weekday` per ticked box). All optional:
    /// a field left out is read as empty.
    struct Fields: ListFields, Sendable {
        var name: String?
        var type: String?
        var target: String?
        var repeating: RepeatFields.Sent

        static let lists = RepeatFields.Sent.lists

        private enum CodingKeys: CodingKey { case name, type, target }

        init(from decoder: any Decoder) throws {
            let form = try decoder.container(keyedBy: CodingKeys.self)
            name = try form.decodeIfPresent(String.self, forKey: .name)
            type = try form.decodeIfPresent(String.self, forKey: .type)
            target = try form.decodeIfPresent(String.self, forKey: .target)
            repeating = try RepeatFields.Sent(from: decoder)
        }
    }

    /// The goals page (`goals-page.mustache`).
    struct ListPage: Sendable {
        struct Item: Sendable {
            let id: Int64
            let name: String
            /// How often, and what it is measured by: "Every day · 10,000 steps a day, from your data".
            let rule: String
            /// "Done today", "Not done yet today", "Not due today".
            let state: String
            /// Due today and not done yet: it has a "Mark done" button.
            let markable: Bool
        }

        /// The add form.
        struct FormView: Sendable {
            struct Kind: Sendable {
                let type: String
                let words: String
                let selected: Bool
            }

            let nameField: Field
            let repeatFields: RepeatFields.View
            let typeError: String?
            let types: [Kind]
            let targetField: Field
        }

        let refused: String?
        let items: [Item]
        let hasItems: Bool
        let form: FormView

        init(_ view: GoalsView, typed: Typed?) {
            refused = typed?.problems.isEmpty == false ? "The goal was not saved." : nil
            items = view.goals.map { g in
                let goal = g.goal
                var rule = RecurrenceWords.rule(goal.rule, start: goal.start)
                if let type = goal.type, let target = goal.target {
                    rule += " · " + view.style.number(target, digits: 1) + " "
                        + (GoalForms.measured.first { $0.type == type }?.words ?? Format.typeName(type)).lowercased() + " a day, from your data"
                }
                let state = g.done != nil ? "Done" + (goal.rule == nil ? "" : " today") : g.applies ? "Not done yet today" : "Not due today"
                return Item(id: goal.id, name: goal.name, rule: rule, state: state, markable: g.done == nil && g.applies)
            }
            hasItems = !items.isEmpty
            let typed = typed ?? Typed(today: view.today)
            var focus = Field.Focus()
            let nameField = Field(label: "Your goal", name: "name", value: typed.name, hint: "For example: Walk 10,000 steps, or Physio exercises",
                                  error: typed.problems["name"], focus: &focus)
            let repeatFields = typed.repeatFields.view(onceAllowed: true, problems: typed.problems, focus: &focus)
            let target = Field(label: "Target for the day", name: "target", value: typed.target, required: false, inputmode: "decimal", short: true,
                               hint: "A number, for example 10000 steps", error: typed.problems["target"], focus: &focus)
            form = FormView(nameField: nameField, repeatFields: repeatFields, typeError: typed.problems["type"],
                            types: GoalForms.measured.map { FormView.Kind(type: $0.type, words: $0.words, selected: typed.type == $0.type) },
                            targetField: target)
        }
    }

    static func page(_ ctx: Configuration, store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let view = try store.records().goalsView(now: DaemonClock.now(), style: NumberStyle(environment: ctx.environment))
        return render(view, query: query, csrf: csrf, typed: nil)
    }

    static func render(_ view: GoalsView, query: Form, csrf: FormKeys, typed: Typed?) -> String {
        WebTemplates.render(PageFrame(title: "Goals", path: "/goals", keys: csrf, notice: Notice(query, back: "/goals"), page: ListPage(view, typed: typed)),
                            .goalsPage)
    }

    /// Adds the goal, or shows the form again with what was typed and what to change (422).
    static func add(_ ctx: Configuration, _ store: LentStore, _ form: Fields, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let journal = try store.records()
        let now = DaemonClock.now()
        var typed = Typed(form)
        if typed.name.trimmingSpaces.isEmpty { typed.problems["name"] = "Type your goal, for example Walk 10,000 steps." }
        var rule: RecurrenceRule?
        switch typed.repeatFields.rule(onceAllowed: true) {
        case .success(let r): rule = r
        case .failure(let problems): typed.problems.merge(problems)
        }
        let type = typed.type.isEmpty ? nil : typed.type
        var target: Double?
        let targetText = typed.target.trimmingSpaces
        if let type {
            if measured.first(where: { $0.type == type }) == nil { typed.problems["type"] = "Choose from the list." }
            if targetText.isEmpty {
                typed.problems["target"] = "Type the number to reach in a day, for example \(measured.first { $0.type == type }?.example ?? "10000")."
            } else if let v = MeasurementEntry.plainNumber(targetText.filter { $0 != " " }), v > 0 {
                target = v
            } else {
                typed.problems["target"] = "Type only the number, for example 10000."
            }
        } else if !targetText.isEmpty {
            typed.problems["type"] = "Choose what the target counts, for example Steps, or clear the target."
        }
        guard typed.problems.isEmpty else {
            let view = try journal.goalsView(now: now, style: NumberStyle(environment: ctx.environment))
            return (Page.respond(.init(code: 422), render(view, query: Form(""), csrf: keys, typed: typed)), nil)
        }
        do {
            let g = try journal.addGoal(name: typed.name, rule: rule, start: nil, type: type, target: target, now: now)
            return (Page.redirect("/goals", ok: "Goal added: \(g.name). \(RecurrenceWords.rule(g.rule, start: g.start))."), .removeGoal(g.id))
        } catch { return (Page.redirect("/goals", error: WebJournal.message(error)), nil) }
    }

    /// Removes a goal; Undo puts it back with the days it was checked off.
    static func remove(_ ctx: Configuration, _ store: LentStore, _ form: EntryFields) throws -> (Response, JournalUndo?) {
        do {
            let removed = try store.records().removeGoalKeeping(Int64(form.id ?? "") ?? -1)
            return (Page.redirect("/goals", ok: "Removed: \(removed.goal.name)."), .restoreGoal(removed))
        } catch { return (Page.redirect("/goals", error: WebJournal.message(error)), nil) }
    }
}
