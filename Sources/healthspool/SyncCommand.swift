import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send queued samples now, bypassing the throttle and the schedule.",
        discussion: "Asks the running daemon over its control socket and shows progress; with no daemon running, syncs in this process (never both at once)."
    )
    @OptionGroup var common: CommonOptions
    @Option(name: .customLong("type"), help: "Only this type (repeatable; registry name or HealthKit identifier).")
    var types: [String] = []
    @Flag(help: "Print the result as JSON.") var json = false

    func run() throws {
        let configuration = try common.configuration()
        if let client = ControlClient(path: configuration.controlSocket) {
            _ = client.send(.object([("command", .string("sync")), ("types", .array(types.map(JSONValue.string)))]))
            while let line = client.next() {
                switch line["event"]?.stringValue {
                case "progress":
                    if !json { print("  \(line["type"]?.stringValue ?? ""): \(line["sent"]?.intValue ?? 0) sent (\(line["outcome"]?.stringValue ?? ""))") }
                case "done":
                    report(line)
                    return
                case "error":
                    throw CLIError(line["message"]?.stringValue ?? "the daemon refused the sync")
                default: break
                }
            }
            throw CLIError("the daemon closed the connection before the sync finished; see journalctl --user -u healthspool")
        }
        let logger = makeLogger("healthspool", level: "warning")
        let results: [SyncJobResult]
        do {
            results = try InProcessSync.run(configuration: configuration, types: types, logger: logger) { type, sent in
                if !json { print("  \(type): \(sent) sent") }
            }
        } catch {
            throw CLIError("\(error)")
        }
        let sent = results.reduce(0) { $0 + $1.sent }
        report(.object([
            ("event", .string("done")), ("outcome", .string(results.outcome.rawValue)), ("sent", .number(Double(sent))),
            ("results", .array(results.map { r in
                .object([("type", .string(r.type)), ("outcome", .string(r.outcome.rawValue)), ("sent", .number(Double(r.sent))),
                         ("parked", .number(Double(r.parked))), ("durationMs", .number(Double(r.durationMillis))),
                         ("error", r.error.map { .string($0.description) } ?? .null)])
            })),
        ]))
    }

    func report(_ done: JSONValue) {
        if json {
            var w = JSONWriter()
            w.value(done)
            print(w.text)
        } else {
            print("sync \(done["outcome"]?.stringValue ?? ""): \(done["sent"]?.intValue ?? 0) sample(s) sent")
            // Each error once, with the types it stopped (an outage is one error, not one per type).
            var errors: [(String, [String])] = []
            for r in done["results"]?.arrayValue ?? [] {
                let type = r["type"]?.stringValue ?? ""
                if let e = r["error"]?.stringValue {
                    if let i = errors.firstIndex(where: { $0.0 == e }) { errors[i].1.append(type) } else { errors.append((e, [type])) }
                }
                if let p = r["parked"]?.intValue, p > 0 { print("  \(type): \(p) parked as dead letters (healthspool dead-letters)") }
            }
            for (e, types) in errors {
                let who = types.count <= 3 ? types.joined(separator: ", ") : "\(types.prefix(2).joined(separator: ", ")) and \(types.count - 2) more types"
                print("  \(who): \(e)")
            }
        }
        let outcome = done["outcome"]?.stringValue.flatMap(SyncOutcome.init(rawValue:)) ?? .failed
        if outcome.exitStatus != 0 { Foundation_exit(outcome.exitStatus) }
    }
}

#if canImport(Glibc)
import Glibc
func Foundation_exit(_ code: Int32) -> Never { exit(code) }
#endif
