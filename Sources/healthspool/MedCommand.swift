import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct MedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "med", abstract: "Medications and the doses you take.",
        discussion: "Each medication has a name, other names, dose, prescriber, directions and times; each dose taken is logged with a time stamp you can change.",
        subcommands: [MedAdd.self, MedList.self, MedEdit.self, MedTake.self, MedDoses.self, MedDose.self, MedRemove.self])
}

struct MedAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a medication.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The medication's name (ibuprofen).") var name: String
    @Option(help: "The dose (\"400 mg\").") var dose = ""
    @Option(name: .customLong("other-names"), help: ArgumentHelp("Other or brand names, comma-separated (Advil,Nurofen).", valueName: "NAMES"))
    var otherNames = ""
    @Option(help: "Who prescribed it.") var prescriber = ""
    @Option(help: "Directions (\"with food\").") var directions = ""
    @Option(help: ArgumentHelp("Times of day it is taken (08:00,20:00).", valueName: "HH:MM,…")) var times: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let m = try withJournal(common) { r in
            try r.records().addMedication(Medication(name: name, otherNames: otherNames.split(separator: ",").map { String($0).trimmingSpaces },
                                                     dose: dose, prescriber: prescriber, directions: directions,
                                                     times: try times.map(TimeOfDay.list(parsing:)) ?? []), now: r.now)
        }
        if json { printJSON(JournalRows.json(m)) } else { print("added medication \(m.id): \(m.name)") }
    }
}

struct MedList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your medications.")
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        // The medications page's view.
        let view = try withJournal(common) { r in try r.records().medicationsView(now: r.now) }
        if json { printJSON(view.json) } else { print(view.text) }
    }
}

struct MedTake: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "take", abstract: "Log a dose taken now (or --at TIME).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The medication: name, other name or id.") var medication: String
    @Option(help: "When it was taken: HH:MM today, YYYY-MM-DD HH:MM, or with an offset.") var at: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let (d, m) = try withJournal(common) { r in
            let j = try r.records()
            return try j.takeDose(medication, at: try at.map { try j.time($0, now: r.now) } ?? r.now)
        }
        if json { printJSON(JournalRows.json(d, m)) } else { print("dose \(d.id): \(m.name) at \(d.takenAt.shortLocal)") }
    }
}

struct MedDoses: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "doses", abstract: "List the doses taken on a day (today by default).")
    @OptionGroup var common: CommonOptions
    @Option(help: "The day (YYYY-MM-DD).", completion: Completions.dates) var date: String?
    @Flag(help: "List every dose logged.") var all = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let list = try withJournal(common) { r in
            let j = try r.records()
            return try j.doses(on: all ? nil : try j.day(date, now: r.now))
        }
        if json { printJSON(.array(list.map(JournalRows.json))); return }
        if list.isEmpty { print("no doses logged"); return }
        for (d, m) in list { print("\(d.id)  \(d.takenAt.shortLocal)  \(m?.name ?? "(removed)")\(d.reminderID.map { "  (reminder \($0))" } ?? "")") }
    }
}

struct MedDose: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dose", abstract: "Change or remove a logged dose.",
                                                    subcommands: [MedDoseEdit.self, MedDoseRemove.self])
}

struct MedDoseEdit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change when a dose was taken.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The dose's id (med doses).") var id: Int64
    @Option(help: "The new time: HH:MM today, YYYY-MM-DD HH:MM, or with an offset.") var at: String

    func run() throws {
        let t = try withJournal(common) { r in
            let j = try r.records()
            let t = try j.time(at, now: r.now)
            try j.editDose(id: id, takenAt: t, now: r.now)
            return j.local(t)
        }
        print("dose \(id) now at \(t.shortLocal)")
    }
}

struct MedDoseRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a logged dose.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The dose's id (med doses).") var id: Int64

    func run() throws {
        try withJournal(common) { try $0.records().removeDose(id: id) }
        print("removed dose \(id)")
    }
}

struct MedRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a medication and its logged doses.",
                                                    discussion: "Reminders for it stay, no longer linked to it.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The medication: name, other name or id.") var medication: String

    func run() throws {
        let m = try withJournal(common) { try $0.records().removeMedication(medication) }
        print("removed medication \(m.id): \(m.name) and its doses")
    }
}
