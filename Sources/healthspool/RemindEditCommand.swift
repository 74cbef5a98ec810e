import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct RemindEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a reminder: its name, times, repeat rule, first day or medication.",
        discussion: "Only what is given changes; a repeat option replaces the whole rule. When it last rang is kept.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The reminder's id (remind list).") var id: Int64
    @Option(help: "A new name.") var name: String?
    @Option(help: ArgumentHelp("New times of day (08:00,20:00).", valueName: "HH:MM,…")) var times: String?
    @OptionGroup var repeatRule: RepeatOptions
    @Option(help: "A new first day (YYYY-MM-DD).", completion: Completions.dates) var start: String?
    @Option(help: "The medication its \"taken\" action logs (name or id); '' for none.") var med: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let newRule = try repeatRule.rule()
        let r = try withJournal(common) { run in
            let j = try run.records()
            let old = try j.reminder(id)
            let medication: String? = switch med {
            case nil: old.medicationID.map(String.init)
            case ""?: nil
            case let m?: m
            }
            return try j.editReminder(id, name: name ?? old.name, times: try times.map(TimeOfDay.list(parsing:)) ?? old.times,
                                      rule: newRule ?? old.rule, start: try start.map { try j.day($0, now: run.now) },
                                      medication: medication, now: run.now)
        }
        if json { printJSON(JournalRows.json(r)) } else {
            print("changed reminder \(r.id): \(r.name), \(RecurrenceWords.rule(r.rule, times: r.times, start: r.start))")
        }
    }
}
