import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

struct DayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "Show a day: steps, distance, sleep, heart rate, workout routes, ECGs, doses and notes.",
        discussion: """
            Totals count the same steps once, as the Health app does: where a watch and a phone (or apps) both \
            counted over a stretch of time, only the source first in day.source_priority counts there, the others \
            only in stretches where it has nothing, and the day is never below what one source counted alone; a \
            sample across midnight counts in proportion to its time in the day. Sleep is the union of the asleep \
            intervals of the nights that end on the day; a night given only as a date counts as its value. Days are local days in your time zone (TZ or \
            /etc/localtime): 23 or 25 hours when the clocks change. See docs/formats.md, "Day totals".
            """)
    @OptionGroup var common: CommonOptions
    @Argument(help: ArgumentHelp("The date, YYYY-MM-DD (default: today).", valueName: "DATE"), completion: Completions.dates) var date: String?
    @Flag(help: "Print JSON (with the heart-rate curve).") var json = false

    func run() throws {
        try withJournal(common) { r in
            let days = try r.days()
            let view = try days.view(try days.date(date, now: r.now), now: r.now)
            if json { printJSON(view.json) } else { print(view.text) }
        }
    }
}

struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Show a month: days with data marked with *, today in [brackets]; heart-rate notification and cycle days below.",
        discussion: "Read from the daily rollups: fast on a store of any size. --json gives each day's steps and sleep.")
    @OptionGroup var common: CommonOptions
    @Argument(help: ArgumentHelp("The month, YYYY-MM (default: this month).", valueName: "MONTH"), completion: Completions.months) var month: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try withJournal(common) { r in
            let days = try r.days()
            let (y, m) = try days.month(month, now: r.now)
            let list = try days.month(year: y, month: m, now: r.now)
            if json {
                printJSON(.object([
                    ("month", .string(String(y) + "-" + (m < 10 ? "0" : "") + String(m))),
                    ("days", .array(list.map(\.json))),
                ]))
            } else {
                print(DayText.grid(list, year: y, month: m, color: isatty(1) != 0))
            }
        }
    }
}

struct RebuildRollupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild-rollups",
        abstract: "Recompute the daily rollups of day and calendar from the stored samples.",
        discussion: "Rollups are kept up to date at every import, revision and pruning, and rebuilt by themselves when the time zone or day.source_priority changes; this rebuilds them on demand.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try withJournal(common) { r in
            try r.days().rebuildRollups()
            print("rollups rebuilt")
        }
    }
}
