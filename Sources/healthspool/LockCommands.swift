import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import HealthSpoolStore

struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Set the lock flag: nothing in the spool is read and nothing is sent until unlock.",
        discussion: "The flag is the file $XDG_STATE_HOME/healthspool/locked; a screen locker hook may create and remove it directly. It survives daemon restarts."
    )
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try common.context()
        try FileSystem.makeDirectory(context.stateDir, mode: 0o700)
        try FileSystem.writeAtomically(context.lockFlagPath, Array("locked\n".utf8))
        print("locked: files wait in the spool and samples stay queued until 'healthspool unlock'")
    }
}

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Release the lock flag: what waited is imported and sent.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try common.context()
        try FileSystem.remove(context.lockFlagPath)
        FileSystem.syncDirectory(of: context.lockFlagPath)
        print("unlocked")
    }
}

struct DeadLettersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead-letters",
        abstract: "List samples the gateway rejected as bad, or queue them again (--retry).",
        discussion: "A batch the gateway rejects is narrowed down to the offending samples, which are parked here instead of blocking the queue."
    )
    @OptionGroup var common: CommonOptions
    @Flag(help: "Put the parked samples back at the end of their type's queue.") var retry = false
    @Option(name: .customLong("type"), help: "Only this type.") var type: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try common.context()
        let store = try context.openStore()
        if retry {
            let counts = try store.requeueDeadLetters(type: type.map(DataType.canonicalName))
            let n = counts.values.reduce(0, +)
            print("\(n) sample(s) queued again")
            if n > 0, let client = ControlClient(path: context.controlSocket, timeoutSeconds: 5) {
                _ = client.send(.object([("command", .string("observe")), ("types", .array(counts.keys.sorted().map(JSONValue.string)))]))
                _ = client.next()
            }
            return
        }
        let parked = try store.deadLetters(limit: 200).filter { type == nil || $0.0.sample.type == DataType.canonicalName(type!) }
        if json {
            var w = JSONWriter()
            w.value(.array(parked.map { s, reason in
                .object([("id", .string(s.sample.id.description)), ("type", .string(s.sample.type)), ("value", .number(s.sample.value)),
                         ("startDate", .string(s.sample.start.iso8601Local)), ("reason", .string(reason))])
            }))
            print(w.text)
            return
        }
        if parked.isEmpty { print("no dead letters"); return }
        for (s, reason) in parked {
            print("\(s.sample.id)  \(s.sample.type.padding(24)) \(SampleIdentity.canonicalNumber(s.sample.value)) \(s.sample.unit)  \(s.sample.start.iso8601Local)  \(reason)")
        }
        print("re-send them with: healthspool dead-letters --retry")
    }
}

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
        let context = try common.context()
        if let pid = ProcessLock.holder(of: context.pidFile) {
            throw CLIError("the daemon is running (pid \(pid)); stop it first: systemctl --user stop healthspool")
        }
        var targets = [context.stateDir, context.runtimeDir]
        if spool { targets += [context.spool.archive, context.spool.failed] }
        guard yes else {
            print("would remove:\n" + targets.map { "  " + $0 }.joined(separator: "\n") + "\nrun again with --yes to remove them")
            return
        }
        for t in targets { try FileSystem.removeTree(t) }
        print("removed:\n" + targets.map { "  " + $0 }.joined(separator: "\n"))
    }
}
