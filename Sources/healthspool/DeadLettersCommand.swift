import ArgumentParser
import HealthSpoolDaemon

struct DeadLettersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead-letters",
        abstract: "List samples the gateway rejected as bad, or queue them again (--retry).",
        discussion: "A batch the gateway rejects is narrowed down to the offending samples, which are parked here instead of blocking the queue."
    )
    @OptionGroup var common: CommonOptions
    @Flag(help: "Put the parked samples back at the end of their type's queue.") var retry = false
    @Option(name: .customLong("type"), help: "Only this type.", completion: Completions.types) var type: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let configuration = try common.configuration()
        if retry {
            print("\(try DeadLetters.requeue(store: .connect(to: configuration), type: type, controlSocket: configuration.controlSocket)) sample(s) queued again")
        } else {
            print(try DeadLetters.list(store: .connect(to: configuration), type: type, json: json))
        }
    }
}
