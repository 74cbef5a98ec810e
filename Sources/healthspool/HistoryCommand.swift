import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import HealthSpoolStore

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "List recent sync attempts.")
    @OptionGroup var common: CommonOptions
    @Option(help: "How many attempts to show.") var limit = 20
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try common.context()
        guard FileSystem.exists(context.storePath) else {
            print(json ? "[]" : "no sync attempts yet")
            return
        }
        let attempts = try SampleStore(path: context.storePath).syncHistory(limit: limit)
        if json {
            var w = JSONWriter()
            w.value(.array(attempts.map(StatusReport.json)))
            print(w.text)
            return
        }
        if attempts.isEmpty { print("no sync attempts yet"); return }
        print("TIME                      TRIGGER   TYPES                     OUTCOME  COUNT  DURATION  ERROR")
        for a in attempts {
            let duration = a.durationMillis >= 1000 ? "\(a.durationMillis / 1000).\(a.durationMillis % 1000 / 100) s" : "\(a.durationMillis) ms"
            print("\(a.started.iso8601UTC.padding(26))\(a.trigger.padding(10))\(a.types.joined(separator: ",").padding(26))\(a.outcome.padding(9))\(String(a.count).padding(7))\(duration.padding(10))\(a.error ?? "")")
        }
    }
}
