import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

/// One finding of `healthspool config check`: where (`file:line`, a variable, `--set`, or
/// `default`), the key, and what is wrong. An error is something the daemon would refuse; a
/// warning, something it accepts that is likely a mistake.
public struct ConfigProblem: Sendable, Equatable {
    public var origin: String
    public var key: String
    public var message: String
    public var isWarning: Bool

    /// `file:line: key: message` (`warning: ` before the message for a warning).
    public var line: String {
        "\(origin): " + (key.isEmpty ? "" : "\(key): ") + (isWarning ? "warning: " : "") + message
    }
}

/// Validates everything the daemon would read: both config files (every line, not only the
/// first bad one), the environment and `--set`, then every setting that names a file or a
/// directory (it exists, is what it should be, can be read; a secret file is not readable by
/// others where the daemon would refuse it), the gateway URL and pin.
public enum ConfigCheck {
    /// What a path setting must name.
    enum PathRule {
        /// A directory the daemon creates when it is missing: if present, a writable directory.
        case directory
        /// A file that must exist and be readable.
        case readableFile
        /// A PEM file of CA certificates.
        case certificates
        /// A private key: readable; a warning when group or others can read it.
        case privateKey
        /// A secret the daemon makes when it is missing: if present, a regular file only its
        /// owner can read (the daemon refuses it otherwise).
        case secret
        /// A file the daemon writes: its directory must exist and be writable.
        case writtenFile
    }

    /// The settings that name a file or directory. A new path setting belongs here.
    static let pathRules: [(key: String, rule: PathRule)] = [
        ("spool.dir", .directory), ("state.dir", .directory),
        ("gateway.ca_file", .certificates), ("gateway.client_cert", .readableFile), ("gateway.client_key", .privateKey),
        ("ingest.cert_file", .certificates), ("ingest.key_file", .privateKey), ("ingest.token_file", .secret),
        ("metrics.textfile", .writtenFile),
    ]

    /// The settings as the daemon would load them (bad lines and values skipped) and every problem found.
    public static func run(paths: Paths, environment: [String: String],
                           overrides: [(String, String)] = []) -> (resolved: ResolvedSettings, problems: [ConfigProblem]) {
        var problems: [ConfigProblem] = []
        var files: [SettingsFile] = []
        for (path, layer) in [(paths.systemConfigFile, SettingsLayer.system), (paths.userConfigFile, .user)] {
            do {
                if let text = try FileSystem.readText(path) { files.append(SettingsFile(path: path, text: text, layer: layer)) }
            } catch {
                problems.append(ConfigProblem(origin: path, key: "", message: "cannot be read: \(error)", isWarning: false))
            }
        }
        let (resolved, errors) = SettingsReader.check(files: files, environment: environment, overrides: overrides)
        problems += errors.map { ConfigProblem(origin: $0.origin, key: $0.key, message: $0.reason, isWarning: false) }
        problems += unknownVariables(environment)
        problems += checkValues(resolved, paths: paths, environment: environment)
        return (resolved, problems)
    }

    /// `HEALTHSPOOL_…` variables that are no setting: the daemon ignores them, so a typo goes unnoticed.
    static func unknownVariables(_ environment: [String: String]) -> [ConfigProblem] {
        let known = Set(SettingKey.all.map(\.environmentName) + ["HEALTHSPOOL_SYSTEM_CONFIG"])
        return environment.keys.filter { $0.hasPrefix("HEALTHSPOOL_") && !known.contains($0) }.sorted().map { name in
            let hint = NameSuggestion.hint(for: name, among: Array(known))
            return ConfigProblem(origin: "environment \(name)", key: "", message: "no such setting\(hint); it is ignored", isWarning: true)
        }
    }

    /// The checks of values whose syntax the reader accepted: URL, pin, files and secrets.
    static func checkValues(_ resolved: ResolvedSettings, paths: Paths, environment: [String: String]) -> [ConfigProblem] {
        let s = resolved.settings
        var problems: [ConfigProblem] = []
        func report(_ key: String, _ message: String, warning: Bool = false) {
            problems.append(ConfigProblem(origin: resolved.origin(of: key).errorText, key: key, message: message, isWarning: warning))
        }
        if let url = s.gatewayURL {
            do throws(GatewayError) { try validateGatewayURL(url) } catch { report("gateway.url", error.description) }
        }
        if let pin = s.gatewayPin {
            do throws(GatewayError) { try GatewaySettingsCheck.checkPin(pin) } catch { report("gateway.pin", error.description) }
        }
        let values: [String: String?] = [
            "spool.dir": s.spoolDir, "state.dir": s.stateDir, "gateway.ca_file": s.gatewayCAFile,
            "gateway.client_cert": s.gatewayClientCert, "gateway.client_key": s.gatewayClientKey,
            "ingest.cert_file": s.ingestCertFile, "ingest.key_file": s.ingestKeyFile, "ingest.token_file": s.ingestTokenFile,
            "metrics.textfile": s.metricsTextfile,
        ]
        for (key, rule) in pathRules {
            guard let value = values[key] ?? nil else { continue }
            if let message = check(paths.expand(value), rule) { report(key, message.text, warning: message.warning) }
        }
        if (s.gatewayClientCert == nil) != (s.gatewayClientKey == nil) {
            report(s.gatewayClientCert == nil ? "gateway.client_key" : "gateway.client_cert",
                   "mutual TLS needs both gateway.client_cert and gateway.client_key")
        }
        if (s.ingestCertFile == nil) != (s.ingestKeyFile == nil) {
            report(s.ingestCertFile == nil ? "ingest.key_file" : "ingest.cert_file",
                   "a given certificate needs both ingest.cert_file and ingest.key_file (the endpoint does not start with one alone)")
        }
        if s.ingestListen != nil, s.ingestTokenFile == nil,
           let message = check(paths.expand(s.stateDir) + "/ingest-token", .secret) {
            report("state.dir", message.text, warning: message.warning)
        }
        if let listen = s.ingestListen, let message = ingestNotServing(listen, paths: paths, retrySeconds: s.ingestRetrySeconds) {
            report("ingest.listen", message, warning: true)
        }
        problems += checkCredentials(resolved, paths: paths, environment: environment)
        // Note recordings go in <state dir>/notes (`HealthJournal.notesDirectory`), made when needed.
        let notes = paths.expand(s.stateDir) + "/notes"
        if let message = check(notes, .directory) { report("state.dir", message.text, warning: message.warning) }
        if s.webEnabled {
            let secret = paths.expand(s.stateDir) + "/web.secret"
            if let info = FileSystem.regularFile(secret), info.mode & 0o077 != 0 {
                report("state.dir", "\(secret) is readable by group or others (mode \(String(info.mode, radix: 8))); the web interface refuses it; run: chmod 600 \(secret)")
            }
        }
        return problems
    }

    /// Why the ingest endpoint at `listen` does not serve: the running daemon's word, or, while
    /// no daemon runs, another user's program holding the port; nil when nothing is wrong.
    static func ingestNotServing(_ listen: ListenAddress, paths: Paths, retrySeconds: Int) -> String? {
        if ProcessLock.holder(of: paths.runtimeDir + "/daemon.pid") != nil {
            guard let live = IngestStatus.read(file: IngestStatus.path(runtimeDir: paths.runtimeDir)), live.state != .listening else { return nil }
            let retry = live.retrySeconds.map { "; the daemon tries again every \($0) s" } ?? "; fix it and restart the daemon"
            return "the endpoint is not serving: \(live.problem ?? "unknown")\(retry)"
        }
        guard let uid = IngestStatus.portHolder(listen), uid != getuid() else { return nil }
        return "\(IngestStatus.takenProblem(listen, holder: uid)): the endpoint will not serve until it is free (the daemon tries again every \(retrySeconds) s)"
    }

    /// The gateway secret as the daemon reads it: from `$CREDENTIALS_DIRECTORY` first, else from
    /// `gateway.credentials_file` (a regular file of the user's, mode 0600, one line).
    static func checkCredentials(_ resolved: ResolvedSettings, paths: Paths, environment: [String: String]) -> [ConfigProblem] {
        let s = resolved.settings
        let file = s.gatewayCredentialsFile.map(paths.expand)
        let key = file != nil ? "gateway.credentials_file" : "gateway.auth"
        let origin = resolved.origin(of: key).errorText
        do {
            let secret = try Credentials.load(file: file, environment: environment, keyring: s.secretsKeyring)
            if secret == nil, s.gatewayAuth != .none, s.gatewayURL != nil {
                return [ConfigProblem(origin: origin, key: key, message: "auth \(s.gatewayAuth.rawValue) needs a secret: set gateway.credentials_file (a 0600 file), store it in the keyring (healthspool gateway set --auth … --credentials-file FILE) or the systemd credential \(Credentials.credentialName)", isWarning: false)]
            }
            return []
        } catch let error as KeyringError {
            // A locked keyring is not a mistake: the daemon waits for it to be unlocked.
            if case .locked = error {
                return [ConfigProblem(origin: origin, key: key, message: "the gateway secret is in the keyring, which is locked now; the daemon waits for it to be unlocked", isWarning: true)]
            }
            return [ConfigProblem(origin: origin, key: key, message: "\(error)", isWarning: false)]
        } catch {
            return [ConfigProblem(origin: origin, key: key, message: "\(error)", isWarning: false)]
        }
    }

    /// What is wrong with `path` under `rule`, if anything.
    static func check(_ path: String, _ rule: PathRule) -> (text: String, warning: Bool)? {
        var st = stat()
        if rule == .writtenFile {
            let dir = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            guard stat(dir.isEmpty ? "/" : dir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                return ("the folder \(dir) does not exist; the file is written there once it does", true)
            }
            guard access(dir.isEmpty ? "/" : dir, W_OK | X_OK) == 0 else { return ("the folder \(dir) is not writable by this user", false) }
            return nil
        }
        guard stat(path, &st) == 0 else {
            if rule == .directory || rule == .secret { return nil }
            return ("\(path) does not exist", false)
        }
        let isDirectory = st.st_mode & S_IFMT == S_IFDIR
        switch rule {
        case .directory:
            guard isDirectory else { return ("\(path) is not a directory", false) }
            guard access(path, W_OK | X_OK) == 0 else { return ("\(path) is not writable by this user", false) }
            return nil
        case .writtenFile:
            return nil
        case .secret:
            guard st.st_mode & S_IFMT == S_IFREG else { return ("\(path) is not a regular file", false) }
            guard access(path, R_OK) == 0 else { return ("\(path) cannot be read by this user", false) }
            if st.st_mode & 0o077 != 0 {
                return ("\(path) is readable by group or others (mode \(String(st.st_mode & 0o7777, radix: 8))); the daemon refuses it; run: chmod 600 \(path)", false)
            }
            return nil
        case .readableFile, .certificates, .privateKey:
            guard st.st_mode & S_IFMT == S_IFREG else { return ("\(path) is not a regular file", false) }
            guard access(path, R_OK) == 0 else { return ("\(path) cannot be read by this user", false) }
            if rule == .certificates {
                let count = (try? FileSystem.read(path, limit: 4 << 20)).map(GatewaySettingsCheck.certificateCount(inPEM:)) ?? 0
                if count == 0 { return ("\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)", false) }
            }
            if rule == .privateKey, st.st_mode & 0o077 != 0 {
                return ("\(path) is readable by group or others (mode \(String(st.st_mode & 0o7777, radix: 8))); run: chmod 600 \(path)", true)
            }
            return nil
        }
    }
}

extension SettingOrigin {
    /// The origin as `config check` names it: `file:line`, `environment NAME`, `--set`, `default`.
    var errorText: String { text }
}
