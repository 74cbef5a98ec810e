import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Show a day of your health journal: symptoms, lifestyle factors and the daily symptom scores.",
        discussion: """
            A daily score is the sum of the severity weights (mild 1, moderate 2, severe 3, debilitating 4) of the day's entries, per category and per symptom; 0 means no entries. A day is your local day: an entry counts on the date it was logged, in the time zone it was logged in. Once a day is over its scores are stored and sent to the gateway (symptomScore records); today's are shown "so far".
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The day: YYYY-MM-DD, today or yesterday (default: today).", completion: Completions.dates) var date: String?
    @Flag(help: "Print the day as JSON.") var json = false

    func run() throws {
        let d = try withJournal(common) { r in try r.entries.day(try date.map { try JournalCLI.date($0, today: r.entries.today) }) }
        if json {
            return printJSON(.object([
                ("date", .string(d.day.description)), ("complete", .bool(d.complete)),
                ("symptoms", .array(d.symptoms.map(JournalRows.json))), ("lifestyle", .array(d.lifestyle.map(JournalRows.json))),
                ("scores", .object([
                    ("categories", .array(d.scores.filter { $0.scope == .category }.map(JournalRows.json))),
                    ("symptoms", .array(d.scores.filter { $0.scope == .symptom }.map(JournalRows.json))),
                ])),
            ]))
        }
        let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        print("Health journal for \(names[d.day.weekday]) \(d.day)" + (d.complete ? "" : " (so far: the day is not over)"))
        print("\nSymptoms")
        if d.symptoms.isEmpty { print("  none logged") }
        for e in d.symptoms { print("  " + JournalRows.line(e)) }
        print("\nLifestyle")
        if d.lifestyle.isEmpty { print("  none logged") }
        for e in d.lifestyle { print("  " + JournalRows.line(e)) }
        for (scope, title) in [(ScoreScope.category, "Scores by category"), (.symptom, "Scores by symptom")] {
            let scores = d.scores.filter { $0.scope == scope }
            print("\n\(title)")
            if scores.isEmpty { print("  none yet") }
            let names = scores.map { EscapedText.escape($0.name) }
            let width = names.map(\.count).max() ?? 0
            for (name, s) in zip(names, scores) { print("  \(name.padding(width))  \(s.score)") }
        }
    }
}
