import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Logging
#if canImport(Glibc)
import Glibc
#endif

@main
struct HealthSpoolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthspool",
        abstract: "Delivers health exports dropped into ~/HealthSpool to your Kafka gateway.",
        discussion: """
            Drop Apple Health exports, Health Auto Export JSON/CSV, or healthspool's own JSON/NDJSON/CSV \
            into ~/HealthSpool. The daemon imports them into a local SQLite store and sends new samples \
            over HTTPS to the gateway you set. See healthspool(1), healthspool.conf(5) and healthspool-spool(7).
            """,
        version: HealthSpoolVersion.current,
        subcommands: [
            DaemonCommand.self, StatusCommand.self, HistoryCommand.self, SyncCommand.self, ImportCommand.self,
            GatewayCommand.self, TypesCommand.self, FrequencyCommand.self, LockCommand.self, UnlockCommand.self,
            DeadLettersCommand.self, PurgeCommand.self,
        ]
    )
}

/// Options every command that reads settings accepts.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a setting for this run (KEY=VALUE, repeatable).", valueName: "KEY=VALUE"))
    var overrides: [String] = []

    /// The context; a configuration error exits 78 with the error on stderr, or, with
    /// `rethrowingConfigErrors` (status, which still reports on a running daemon), is thrown as
    /// the `SettingsError` naming the file and line.
    func context(rethrowingConfigErrors: Bool = false) throws -> DaemonContext {
        var pairs: [(String, String)] = []
        for o in overrides {
            guard let eq = o.firstIndex(of: "=") else { throw ValidationError("--set takes KEY=VALUE, got '\(o)'") }
            pairs.append((String(o[..<eq]), String(o[o.index(after: eq)...])))
        }
        do { return try DaemonContext(overrides: pairs) } catch let error as SettingsError {
            if rethrowingConfigErrors { throw error }
            throw configurationError(error)
        } catch {
            throw CLIError("\(error)")
        }
    }
}

/// Reports a configuration error (it names the file and line, or the variable, and what is
/// allowed) on stderr, and gives exit status 78 (EX_CONFIG) to throw.
func configurationError(_ error: SettingsError) -> ExitCode {
    StandardError.write("Error: \(error)\n")
    return ExitCode(78)
}

/// A failure reported to the user as one line, exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

func makeLogger(_ label: String, level: String = "info") -> Logger {
    let parsed = Logger.Level(rawValue: level) ?? .info
    LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: parsed) }
    var logger = Logger(label: label)
    logger.logLevel = parsed
    return logger
}

struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the service in the foreground (systemd runs this).",
        discussion: "Watches the spool with inotify, imports files, and syncs new samples to the gateway. Stops cleanly on SIGTERM; SIGHUP reloads the settings."
    )
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try common.context()
        let logger = makeLogger("healthspool", level: context.settings.logLevel)
        let code = Daemon(context: context, logger: logger).run()
        if code != 0 { throw ExitCode(code) }
    }
}

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon, spool, store, gateway and sync state.",
        discussion: """
            The daemon's state is idle, importing, syncing (with its progress), success, error (with the error and \
            when it is retried), locked or stopping. A config file with an error is named with its line; the \
            daemon keeps running on the configuration it read before. Exit status: 0 when the daemon runs, 3 when \
            it does not (as systemctl status), 78 when a config file has an error and no daemon runs.
            """)
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let report: StatusReport
        do {
            report = try StatusReport(context: try common.context(rethrowingConfigErrors: true))
        } catch let e as SettingsError {
            // A running daemon keeps its previous configuration: report on it, naming the error.
            // With none running, the error is all there is to say (exit 78, as every command).
            let fallback = DaemonContext.ignoringConfigFiles()
            guard ProcessLock.holder(of: fallback.pidFile) != nil else { throw configurationError(e) }
            report = try StatusReport(context: fallback, configError: e.description)
        } catch let e as CLIError {
            report = try StatusReport(context: .ignoringConfigFiles(), configError: e.description)
        }
        print(json ? report.jsonText : report.text)
        if report.json["daemon"]?["running"]?.boolValue != true { throw ExitCode(3) }
    }
}
