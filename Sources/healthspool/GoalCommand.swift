import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct GoalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal", abstract: "Tasks and goals: one-off or repeating, checked off by hand or from your data.",
        discussion: "A goal on a measured type (--type stepCount --target 10000) checks itself off once the day's samples of that type add up to the target.",
        subcommands: [GoalAdd.self, GoalList.self, GoalDone.self, GoalRemove.self])
}

struct GoalAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a task or goal (one-off unless a repeat is given).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "What to do (\"Physio exercises\").") var name: String
    @OptionGroup var repeatRule: RepeatOptions
    @Option(help: "The first day (YYYY-MM-DD; default today).", completion: Completions.dates) var start: String?
    @Option(help: "A measured goal's sample type (stepCount, appleStandHour; see healthspool types).", completion: Completions.types) var type: String?
    @Option(help: "The day total that meets it (10000).") var target: Double?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let rule = try repeatRule.rule()
        let g = try withJournal(common) { r in
            let j = try r.records()
            return try j.addGoal(name: name, rule: rule, start: try start.map { try j.day($0, now: r.now) }, type: type, target: target, now: r.now)
        }
        if json { printJSON(JournalRows.json(g)) } else { print("added goal \(g.id): \(g.name)\(g.rule.map { ", \($0)" } ?? ", once")") }
    }
}

struct GoalList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List goals and whether they are done on a day.")
    @OptionGroup var common: CommonOptions
    @Option(help: "The day (YYYY-MM-DD; default today).", completion: Completions.dates) var date: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        // The goals page's view, on the day asked for.
        let view = try withJournal(common) { r in
            let j = try r.records()
            return try j.goalsView(now: r.now, style: j.style, on: try j.day(date, now: r.now))
        }
        if json { printJSON(view.json) } else { print(view.text) }
    }
}

struct GoalDone: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Check a goal off (today, or --date).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The goal's id.") var id: Int64
    @Option(help: "The day (YYYY-MM-DD; default today).", completion: Completions.dates) var date: String?

    func run() throws {
        let g = try withJournal(common) { r in
            let j = try r.records()
            return try j.completeGoal(id, day: try j.day(date, now: r.now), now: r.now)
        }
        print("done: \(g.name)")
    }
}

struct GoalRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a goal.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The goal's id.") var id: Int64

    func run() throws {
        try withJournal(common) { try $0.records().removeGoal(id) }
        print("removed goal \(id)")
    }
}
