import ArgumentParser
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

struct SecretsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Show where the secrets live, or move them between the keyring and files.",
        subcommands: [SecretsShow.self, SecretsMigrate.self],
        defaultSubcommand: SecretsShow.self
    )
}

struct SecretsShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Say where each secret lives (never the secret).")
    @OptionGroup var common: CommonOptions

    func run() throws {
        for line in secretLines(try common.configuration().secretPlaces()) { print(line) }
    }
}

struct SecretsMigrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move the secrets into the session's keyring, or out of it into 0600 files.",
        discussion: """
            --to keyring: the gateway's secret (gateway.credentials_file), the web secret and the ingest token (unless \
            ingest.token_file names a file of your own) are stored in the Secret Service of your session \
            (org.freedesktop.secrets: GNOME Keyring, KWallet, KeePassXC), as items with the attributes \
            application=healthspool and setting=gateway.secret, web.secret or ingest.token; their files are then \
            removed, gateway.credentials_file is unset and secrets.keyring is set to auto. The keyring must be unlocked.

            --to file: each secret the keyring holds is written to a file only you can read (the gateway's to \
            gateway.credentials_file, or ~/.config/healthspool/gateway.secret; the others to the state directory), \
            then deleted from the keyring; secrets.keyring is set to off, so that new secrets are made as files too.

            A systemd credential ($CREDENTIALS_DIRECTORY/healthspool-gateway) is never moved: it wins over both. \
            A running daemon picks the change up at once.
            """
    )
    enum Target: String, ExpressibleByArgument, CaseIterable { case keyring, file }

    @OptionGroup var common: CommonOptions
    @Option(help: "Where to: keyring or file.") var to: Target

    func run() throws {
        let configuration = try common.configuration()
        do {
            switch to {
            case .keyring: try toKeyring(configuration)
            case .file: try toFiles(configuration)
            }
        } catch let error as CLIError { throw error } catch { throw CLIError("\(error)") }
        if let pid = ProcessLock.holder(of: configuration.pidFile) {
            kill(pid_t(pid), SIGHUP)   // reload: the secrets are read again from where they are now
            print("the running daemon picks it up now")
        }
    }

    func toKeyring(_ configuration: Configuration) throws {
        let environment = configuration.environment
        let service: SecretService
        do { service = try SecretService(environment: environment) } catch {
            throw CLIError("cannot move the secrets to the keyring: \(error)")
        }
        if try service.isLocked() { throw CLIError("\(KeyringError.locked(nil))") }
        var moved: [String] = [], removed: [String] = []
        if let file = configuration.settings.gatewayCredentialsFile.map(configuration.paths.expand) {
            if FileSystem.exists(file) {
                guard let secret = try Credentials.load(file: file, environment: [:]) else { throw CLIError("\(file) is empty") }
                try service.store(.gateway, secret: Array(secret.utf8))
                moved.append(SecretName.gateway.rawValue)
                try FileSystem.remove(file)
                removed.append(file)
            }
        }
        let own: [(SecretName, String, Bool)] = [
            (.web, configuration.webSecretPath, true),
            (.ingest, configuration.ingestTokenPath, configuration.ingestTokenKeyring != .off),
        ]
        for (name, file, movable) in own where FileSystem.exists(file) {
            guard movable else {
                print("\(name.rawValue): left in \(file) (ingest.token_file names it)")
                continue
            }
            guard let text = try FileSystem.readText(file)?.trimmingSpaces, !text.isEmpty else { continue }
            if let info = FileSystem.regularFile(file), info.mode & 0o077 != 0 {
                throw CLIError("\(file) is readable by group or others; run: chmod 600 \(file)")
            }
            try service.store(name, secret: Array(text.utf8))
            moved.append(name.rawValue)
            try FileSystem.remove(file)
            removed.append(file)
        }
        try SettingsLoader.update(paths: configuration.paths, [("secrets.keyring", nil), ("gateway.credentials_file", nil)])
        print(moved.isEmpty ? "no secret in a file to move; secrets.keyring = auto" : "moved to the keyring: \(moved.joined(separator: ", "))")
        for file in removed { print("removed \(file)") }
    }

    func toFiles(_ configuration: Configuration) throws {
        var moved: [String] = []
        var changes: [(String, String?)] = [("secrets.keyring", KeyringUse.off.rawValue)]
        do {
            let service = try SecretService(environment: configuration.environment)
            let gatewayFile = configuration.settings.gatewayCredentialsFile.map(configuration.paths.expand)
                ?? configuration.paths.configDir + "/gateway.secret"
            let targets: [(SecretName, String)] = [(.gateway, gatewayFile), (.web, configuration.webSecretPath), (.ingest, configuration.ingestTokenPath)]
            for (name, file) in targets {
                guard let bytes = try service.read(name) else { continue }
                try FileSystem.makeDirectory(FileSystem.parent(file), mode: 0o700)
                try FileSystem.writeAtomically(file, bytes + [0x0A], mode: 0o600)
                try service.delete(name)
                moved.append("\(name.rawValue) → \(file)")
                if name == .gateway, configuration.settings.gatewayCredentialsFile == nil { changes.append(("gateway.credentials_file", file)) }
            }
        } catch KeyringError.unavailable(let why) {
            print("no keyring to move from (\(why))")
        }
        try SettingsLoader.update(paths: configuration.paths, changes)
        print(moved.isEmpty ? "no secret in the keyring to move" : "moved to files: \(moved.joined(separator: ", "))")
        print("secrets.keyring = off: new secrets are made as 0600 files")
    }
}
