import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind", abstract: "Reminders: several times a day, repeating by a rule; export to a calendar.",
        discussion: """
            A reminder rings at local wall-clock times (08:00 stays 08:00 across DST changes and time zones). \
            Repeat rules are iCalendar RRULEs: every N days, chosen weekdays, every N weeks, monthly. A time the \
            clocks skip on a DST day gives no reminder that day; a time that happens twice rings at the first.
            """,
        subcommands: [RemindAdd.self, RemindList.self, RemindNext.self, RemindEdit.self, RemindRemove.self, RemindExport.self, RemindTaken.self])
}

struct RemindAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a reminder.",
        discussion: "Without a repeat option it repeats every day. Examples: --every 2 days; --weekdays mon,wed,fri; --every 2 weeks; --monthly.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "What to be reminded of (\"Take ibuprofen\").") var name: String
    @Option(help: ArgumentHelp("Times of day (08:00,20:00).", valueName: "HH:MM,…")) var times: String
    @OptionGroup var repeatRule: RepeatOptions
    @Option(help: "The first day (YYYY-MM-DD; default today).", completion: Completions.dates) var start: String?
    @Option(help: "A medication: its reminder's \"taken\" action logs a dose.") var med: String?
    @Option(help: "medication, lifestyle, appointment, device or other.", completion: .list(ReminderKind.allCases.map(\.rawValue))) var kind: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let rule = try repeatRule.rule() ?? RecurrenceRule(.daily)
        guard kind == nil || ReminderKind(rawValue: kind!.lowercased()) != nil else {
            throw ValidationError("--kind: '\(kind!)' is not one of \(ReminderKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let r = try withJournal(common) { run in
            let j = try run.records()
            return try j.addReminder(name: name, kind: kind.flatMap { ReminderKind(rawValue: $0.lowercased()) }, times: try TimeOfDay.list(parsing: times),
                                     rule: rule, start: try start.map { try j.day($0, now: run.now) }, medication: med, now: run.now)
        }
        if json { printJSON(JournalRows.json(r)) } else { print("added reminder \(r.id): \(r.name) at \(r.times.map(\.description).joined(separator: ", ")), \(r.rule)") }
    }
}

struct RemindList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List reminders with their next time.")
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        // The reminders page's view: the rule in the words the page uses, when it next rings.
        let view = try withJournal(common) { run in try run.records().remindersView(now: run.now) }
        if json { printJSON(view.json) } else { print(view.text) }
    }
}

struct RemindNext: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "next", abstract: "Show a reminder's next occurrences.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The reminder's id.") var id: Int64
    @Option(help: "How many.") var count = 10
    @Option(help: "Count from this time instead of now (YYYY-MM-DD HH:MM local, or with an offset).") var after: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        guard (1...10_000).contains(count) else { throw ValidationError("--count takes 1 to 10000") }
        let list = try withJournal(common) { r in
            let j = try r.records()
            return try j.nextOccurrences(of: id, after: try after.map { try j.time($0, now: r.now) } ?? r.now, count: count)
        }
        if json { printJSON(.array(list.map { .string($0.iso8601Local) })); return }
        for t in list { print(t.shortLocal) }
    }
}

struct RemindRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a reminder.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The reminder's id.") var id: Int64

    func run() throws {
        let r = try withJournal(common) { try $0.records().removeReminder(id) }
        print("removed reminder \(r.id): \(r.name)")
    }
}

struct RemindExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the reminders as an iCalendar file (healthspool remind export > reminders.ics).",
        discussion: "One VEVENT with a VALARM per reminder and time of day, in the machine's time zone (TZ), with a VTIMEZONE.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        let text = try withJournal(common) { r in try r.records().calendar(now: r.now) }
        print(text, terminator: "")
    }
}

struct RemindTaken: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taken", abstract: "Log the dose a medication reminder is for (the notification's \"Taken\" action).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The reminder's id.") var id: Int64
    @Option(help: "When it was taken (default now).") var at: String?

    func run() throws {
        let (d, m) = try withJournal(common) { r in
            let j = try r.records()
            return try j.takeDose(fromReminder: id, at: try at.map { try j.time($0, now: r.now) } ?? r.now)
        }
        print("dose \(d.id): \(m.name) at \(d.takenAt.shortLocal) (reminder \(id))")
    }
}
