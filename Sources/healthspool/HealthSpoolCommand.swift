import ArgumentParser
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolIngest
import HealthSpoolWeb
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

            Every command takes -q/--quiet (log errors only) and -v/--verbose (log at debug level). Shell \
            completions: healthspool --generate-completion-script bash (or zsh, fish); see healthspool(1).
            """,
        version: HealthSpoolVersion.current,
        subcommands: [
            DaemonCommand.self, StatusCommand.self, HistoryCommand.self, SyncCommand.self, ImportCommand.self,
            GatewayCommand.self, TypesCommand.self, FrequencyCommand.self, LockCommand.self, UnlockCommand.self,
            DeadLettersCommand.self, DeletionsCommand.self, PurgeCommand.self, NotifyTestCommand.self,
            MedCommand.self, RemindCommand.self, GoalCommand.self, NoteCommand.self, MeasureCommand.self, UICommand.self,
            DayCommand.self, CalendarCommand.self, RebuildRollupsCommand.self, ReportCommand.self, RecordsCommand.self,
            SymptomCommand.self, LifestyleCommand.self, JournalCommand.self, ConfigCommand.self, IngestCommand.self, SecretsCommand.self,
        ]
    )

    // Taken out of the arguments before parsing (`CommandLineVerbosity.extract`), so that every
    // command accepts them anywhere; declared here for the help and the completion scripts.
    @Flag(name: .shortAndLong, help: "Log errors only (every command).") var quiet = false
    @Flag(name: .shortAndLong, help: "Log at debug level (every command).") var verbose = false

    /// Parses and runs the command, after taking out `-q`/`-v`; a mistyped subcommand gets a
    /// "did you mean" hint and exit status 64 (EX_USAGE), as ArgumentParser gives a mistyped option.
    static func main() {
        let (arguments, verbosity) = CommandLineVerbosity.extract(from: Array(CommandLine.arguments.dropFirst()))
        // Before the arguments are parsed: a stop sent to a daemon that is still starting waits for it.
        if arguments.first == "daemon" { Daemon.holdStopSignals() }
        Verbosity.current = verbosity
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if let message = SubcommandTypo.message(for: arguments, root: Self.self) {
                StandardError.write(message + "\n")
                exit(withError: ExitCode(64))
            }
            exit(withError: error)
        }
        do { try command.run() } catch { exit(withError: error) }
    }
}

/// The verbosity the command line asked for (`-q`, `-v`), set once in `main`.
enum Verbosity {
    nonisolated(unsafe) static var current = CommandLineVerbosity.normal
}

/// Options every command that reads settings accepts.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a setting for this run (KEY=VALUE, repeatable).", valueName: "KEY=VALUE"),
            completion: .list(SettingKey.all.map { $0.name + "=" }))
    var overrides: [String] = []

    /// The `--set` overrides as (key, value) pairs.
    func overridePairs() throws -> [(String, String)] {
        try overrides.map { o in
            guard let eq = o.firstIndex(of: "=") else { throw ValidationError("--set takes KEY=VALUE, got '\(o)'") }
            return (String(o[..<eq]), String(o[o.index(after: eq)...]))
        }
    }

    /// The configuration; a configuration error is reported and exits 78 (EX_CONFIG).
    func configuration() throws -> Configuration {
        do { return try loadConfiguration() } catch let error as SettingsError {
            throw configurationError(error)
        }
    }

    /// The configuration, or the `SettingsError` as it is (for `status`, which reports it and goes on
    /// to show the daemon).
    func loadConfiguration() throws -> Configuration {
        let pairs = try overridePairs()
        do { return try Configuration(overrides: pairs) } catch let error as SettingsError {
            throw error
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

/// The logger of a command, at `level` unless `-q` or `-v` asks for another.
func makeLogger(_ label: String, level: String = "info") -> Logger {
    let parsed = Logger.Level(rawValue: Verbosity.current.logLevel(default: level)) ?? .info
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
        let configuration = try common.configuration()
        let logger = makeLogger("healthspool", level: configuration.settings.logLevel)
        let app: App
        do { app = try App(configuration: configuration, logger: logger) } catch { throw CLIError("cannot start: \(error)") }
        let daemon = Daemon(app: app)
        if configuration.settings.webEnabled {
            daemon.extraServices.append(WebInterface(configuration: app.current, logger: logger, metrics: app.metrics, stores: app.stores,
                                                      manualSync: daemon.manualSync))
        }
        if configuration.settings.ingestListen != nil { daemon.extraServices.append(IngestService(configuration: configuration, logger: logger, metrics: app.metrics)) }
        let code = daemon.run()
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
            report = try StatusReport(configuration: try common.loadConfiguration())
        } catch let e as SettingsError {
            report = try StatusReport(configuration: .ignoringConfigFiles(), configError: e.description)
        } catch let e as CLIError {
            report = try StatusReport(configuration: .ignoringConfigFiles(), configError: e.description)
        }
        print(json ? report.jsonText : report.text)
        if report.json["daemon"]?["running"]?.boolValue != true { throw ExitCode(3) }
    }
}
