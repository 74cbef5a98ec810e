import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct MedEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a medication's name, dose, other names, prescriber, directions or times.",
        discussion: "Only what is given changes; its logged doses and reminders stay linked to it.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The medication: name, other name or id.") var medication: String
    @Option(help: "A new name.") var name: String?
    @Option(help: "The dose (\"400 mg\").") var dose: String?
    @Option(name: .customLong("other-names"), help: ArgumentHelp("Other or brand names, comma-separated.", valueName: "NAMES"))
    var otherNames: String?
    @Option(help: "Who prescribed it.") var prescriber: String?
    @Option(help: "Directions (\"with food\").") var directions: String?
    @Option(help: ArgumentHelp("Times of day it is taken (08:00,20:00; '' for none).", valueName: "HH:MM,…")) var times: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let m = try withJournal(common) { r in
            let j = try r.records()
            var m = try j.medication(medication)
            if let name { m.name = name }
            if let dose { m.dose = dose }
            if let otherNames { m.otherNames = otherNames.split(separator: ",").map { String($0).trimmingSpaces } }
            if let prescriber { m.prescriber = prescriber }
            if let directions { m.directions = directions }
            if let times { m.times = times.trimmingSpaces.isEmpty ? [] : try TimeOfDay.list(parsing: times) }
            return try j.editMedication(m.id, m)
        }
        if json { printJSON(JournalRows.json(m)) } else { print("changed medication \(m.id): \(m.name)") }
    }
}
