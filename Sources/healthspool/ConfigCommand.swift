import ArgumentParser
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration, or show the effective settings and where each came from.",
        subcommands: [ConfigCheckCommand.self, ConfigShowCommand.self]
    )
}

struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every file and setting the daemon would read.",
        discussion: """
            Reads /etc/healthspool/healthspool.conf ($HEALTHSPOOL_SYSTEM_CONFIG), ~/.config/healthspool/healthspool.conf, \
            the HEALTHSPOOL_* environment variables and --set, reporting every bad line and value (not only the first), \
            then checks what the values name: directories, the CA, client certificate and key files, the gateway URL and \
            pin, the credentials file (a regular file of yours, mode 0600, or the systemd credential) and the web secret. \
            Each problem is one line, 'file:line: key: message'. Then says where each secret lives (keyring, file or \
            systemd credential; never the secret) and whether the store, its WAL, the notes' audio, archive/ and failed/ \
            are encrypted at rest (fscrypt, dm-crypt, or not: see healthspool-security(7)).

            Exit status: 0 when the daemon would accept the configuration (warnings are printed but do not fail it), \
            78 (EX_CONFIG) when anything is an error.
            """
    )
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON: {\"ok\", \"errors\", \"warnings\"}.") var json = false

    func run() throws {
        let pairs = try common.overridePairs()
        let environment = ProcessEnvironment.current
        let paths = Paths(environment: environment)
        let (_, problems) = ConfigCheck.run(paths: paths, environment: environment, overrides: pairs)
        let errors = problems.filter { !$0.isWarning }, warnings = problems.filter(\.isWarning)
        // Where the secrets live and whether the data is encrypted: facts, not problems.
        let configuration = errors.isEmpty ? try? Configuration(environment: environment, overrides: pairs) : nil
        let secrets = configuration?.secretPlaces() ?? []
        let protection = configuration?.protectionReport()
        if json {
            func item(_ p: ConfigProblem) -> JSONValue {
                .object([("origin", .string(p.origin)), ("key", .string(p.key)), ("message", .string(p.message)), ("line", .string(p.line))])
            }
            var w = JSONWriter()
            var members: [(String, JSONValue)] = [("ok", .bool(errors.isEmpty)), ("errors", .array(errors.map(item))),
                                                  ("warnings", .array(warnings.map(item)))]
            if let configuration { members.append(("secrets", configuration.secretsJSON())) }
            if let protection { members.append(("protection", protection.json)) }
            w.value(.object(members))
            print(w.text)
        } else {
            for p in problems where !Verbosity.current.isQuiet || !p.isWarning { StandardError.write(p.line + "\n") }
            let files = [paths.systemConfigFile, paths.userConfigFile].filter(FileSystem.exists)
            let read = files.isEmpty ? "no config file" : files.joined(separator: ", ")
            if errors.isEmpty {
                if !Verbosity.current.isQuiet {
                    print("OK: \(read)\(warnings.isEmpty ? "" : " (\(warnings.count) warning\(warnings.count == 1 ? "" : "s"))")")
                    for line in secretLines(secrets) + (protection.map(protectionLines) ?? []) { print(line) }
                }
            } else {
                StandardError.write("\(errors.count) error\(errors.count == 1 ? "" : "s"): the daemon would not start with this configuration\n")
            }
        }
        if !errors.isEmpty { throw ExitCode(78) }
    }
}

struct ConfigShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print every setting's effective value and where it came from.",
        discussion: """
            The origin is 'default', a config file and line (the /etc file or yours), 'environment HEALTHSPOOL_…', \
            or '--set'. Values are shown as the daemon reads them. Secrets are never printed: a URL's \
            user information and query are masked; below the table, each secret's place (keyring, file or \
            systemd credential) is named, not the secret. A config file with an error is reported as 'config check' does \
            (exit status 78).
            """
    )
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON: one object per setting with key, value, origin and where.") var json = false

    func run() throws {
        let pairs = try common.overridePairs()
        let environment = ProcessEnvironment.current
        let resolved: ResolvedSettings
        do {
            resolved = try SettingsLoader.loadTracked(paths: Paths(environment: environment), environment: environment, overrides: pairs)
        } catch let error as SettingsError {
            throw configurationError(error)
        }
        let rows = SettingKey.all.map { key -> (key: String, value: String, masked: Bool, origin: SettingOrigin) in
            let shown = SettingMask.shown(key: key.name, value: resolved.valueText(of: key))
            return (key.name, shown.text, shown.masked, resolved.origin(of: key.name))
        }
        if json {
            var w = JSONWriter()
            w.value(.array(rows.map { row in
                var fields: [(String, JSONValue)] = [("key", .string(row.key)), ("value", .string(row.value)), ("masked", .bool(row.masked)),
                                                     ("origin", .string(row.origin.kind)), ("where", .string(row.origin.text))]
                if case let .file(_, path, line) = row.origin { fields += [("file", .string(path)), ("line", .number(Double(line)))] }
                if case let .environment(name) = row.origin { fields.append(("variable", .string(name))) }
                return .object(fields)
            }))
            print(w.text)
            return
        }
        print(TextTable(["KEY", "VALUE", "ORIGIN"], rows.map { [$0.key, $0.value, $0.origin.text] }).text)
        if let configuration = try? Configuration(environment: environment, overrides: pairs) {
            print("")
            for line in secretLines(configuration.secretPlaces()) { print(line) }
        }
    }
}

/// `secret:` lines: each secret and where it lives (never the secret).
func secretLines(_ secrets: [(name: SecretName, place: SecretPlace)]) -> [String] {
    secrets.map { "secret:      \($0.name.rawValue): \($0.place.text)" }
}

/// `protection:` lines: each group of places and its verdict, then the warning when something
/// is not encrypted.
func protectionLines(_ report: ProtectionReport) -> [String] {
    var lines = report.lines.map { "protection:  \($0)" }
    if let warning = report.warning { lines.append("             warning: \(warning)") }
    return lines
}
