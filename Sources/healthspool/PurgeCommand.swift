import ArgumentParser
import HealthSpoolDaemon

struct PurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove your local healthspool data: the store, its state and the lock flag.",
        discussion: "Queued samples that were not sent are lost. With --spool, the spool's archive/ and failed/ folders go too. The daemon must be stopped first."
    )
    @OptionGroup var common: CommonOptions
    @Flag(help: "Do it (without this, only say what would be removed).") var yes = false
    @Flag(help: "Also remove the spool's archive/ and failed/ folders.") var spool = false

    func run() throws {
        let purge: Purge
        do { purge = try Purge(configuration: try common.configuration(), includingSpool: spool) } catch let refused as PurgeRefused {
            throw CLIError(refused.description)
        }
        let list = purge.targets.map { "  " + $0 }.joined(separator: "\n")
        guard yes else {
            print("would remove:\n" + list + "\nrun again with --yes to remove them")
            return
        }
        try purge.run()
        print("removed:\n" + list)
    }
}
