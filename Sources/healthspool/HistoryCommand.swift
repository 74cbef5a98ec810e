import ArgumentParser
import HealthSpoolDaemon

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "List recent sync attempts.")
    @OptionGroup var common: CommonOptions
    @Option(help: "How many attempts to show.") var limit = 20
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        print(try SyncHistory.report(storePath: try common.configuration().storePath, limit: limit, json: json))
    }
}
