import ArgumentParser
import HealthJournal

struct RecordsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records",
        abstract: "Show your health records: conditions, allergies, your providers' medications, immunizations, hearing tests and vision prescriptions.",
        discussion: """
            What the web interface's Health records page shows, read from the local store: the FHIR records your providers \
            sent to the phone (an Apple Health export.zip's clinical-records/), newest first, each list left out when empty, \
            the lab results (an Observation with a number) by test, then each audiogram's thresholds per ear (dB HL) and each vision prescription per eye. They stay on this \
            computer unless their types are enabled by name (healthspool types).
            """)
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON (every list, empty ones too).") var json = false

    func run() throws {
        let records = try withJournal(common) { try $0.healthRecords() }
        if json { printJSON(records.json) } else { print(records.text) }
    }
}
