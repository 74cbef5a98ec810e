import ArgumentParser
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolGateway
import HealthSpoolLinux

struct GatewayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Show, set or test the gateway samples are sent to.",
        subcommands: [GatewaySet.self, GatewayShow.self, GatewayUnset.self, GatewayTest.self],
        defaultSubcommand: GatewayShow.self
    )
}

struct GatewaySet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Save the gateway URL (https:// only) and its options in your config file, then test it.",
        discussion: """
            Checks what it saves (the URL's host and port, that the CA file holds PEM certificates, the pin's form, \
            that the chosen --auth has a secret), then runs the probe of 'healthspool gateway test' and prints its \
            verdict. An unreachable gateway is saved all the same, with a warning. Secrets are never taken on the \
            command line: put the API key, token or user:password in a file only you can read (chmod 600) and pass \
            --credentials-file; one line of printable text (a trailing newline is fine). When your session has an \
            unlocked keyring (Secret Service) and secrets.keyring is auto, the secret is stored there (item \
            application=healthspool, setting=gateway.secret) and the file is no longer needed; else the file is \
            named in gateway.credentials_file.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The gateway's https:// URL (the REST proxy base URL for confluent-v2/v3).") var url: String
    @Option(help: "Wire format: json, confluent-v2, confluent-v3, fhir (FHIR R4 resources in Confluent v2 records) or fhir-v3 (in v3 records).", completion: Completions.formats) var format: String?
    @Option(help: "Kafka topic (confluent-v2/v3, fhir, fhir-v3).") var topic: String?
    @Option(help: "Kafka cluster id (confluent-v3, fhir-v3).") var cluster: String?
    @Option(name: .customLong("ca-file"), help: "PEM file of CA certificates to trust (a private CA).", completion: .file()) var caFile: String?
    @Option(help: "Public-key pin: sha256//BASE64.") var pin: String?
    @Option(help: "Authentication: none, api-key, basic or bearer.", completion: Completions.auth) var auth: String?
    @Option(name: .customLong("credentials-file"), help: "File (mode 0600) holding the API key, token or user:password.", completion: .file()) var credentialsFile: String?
    @Option(name: .customLong("client-cert"), help: "PEM client certificate (mutual TLS).", completion: .file()) var clientCert: String?
    @Option(name: .customLong("client-key"), help: "PEM key of the client certificate.", completion: .file()) var clientKey: String?
    @Flag(name: .customLong("no-test"), help: "Save without probing the gateway.") var noTest = false

    func run() throws {
        do { try validateGatewayURL(url) } catch { throw CLIError("\(error)") }
        let configuration = try common.configuration()
        func absolute(_ p: String?) -> String? {
            guard let p else { return nil }
            if p.hasPrefix("/") || p.hasPrefix("~") { return p }
            return currentDirectory() + "/" + p
        }
        var changes: [(String, String?)] = [("gateway.url", url)]
        if let caFile = absolute(caFile) {
            guard FileSystem.regularFile(configuration.paths.expand(caFile)) != nil else { throw CLIError("--ca-file \(caFile): no such file") }
            let pem = (try? FileSystem.read(configuration.paths.expand(caFile), limit: 16 << 20)) ?? []
            guard GatewaySettingsCheck.certificateCount(inPEM: pem) > 0 else {
                throw CLIError("--ca-file \(caFile): no PEM certificate in it (expected -----BEGIN CERTIFICATE----- blocks); pass the CA's certificate, not its key or a DER file (openssl x509 -inform der -in CA.der -out CA.pem)")
            }
            changes.append(("gateway.ca_file", caFile))
        }
        if let pin { do { try GatewaySettingsCheck.checkPin(pin) } catch { throw CLIError("--pin: \(error)") } }
        if let format { changes.append(("gateway.format", format.lowercased())) }
        if let topic { changes.append(("gateway.topic", topic)) }
        if let cluster { changes.append(("gateway.cluster", cluster)) }
        if let pin { changes.append(("gateway.pin", pin)) }
        if let auth { changes.append(("gateway.auth", auth.lowercased())) }
        if let auth, GatewayAuth(rawValue: auth.lowercased()) == nil {
            throw CLIError("--auth \(auth): not one of \(GatewayAuth.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var storedInKeyring = false
        if let f = absolute(credentialsFile) {
            let secret: String?
            do { secret = try Credentials.load(file: configuration.paths.expand(f), environment: [:]) } catch { throw CLIError("\(error)") }
            do {
                storedInKeyring = try SecretService.with(use: configuration.settings.secretsKeyring, environment: configuration.environment) { service throws(KeyringError) in
                    if try service.isLocked() { throw .locked(nil) }
                    try service.store(.gateway, secret: Array((secret ?? "").utf8))
                    return true
                } ?? false
            } catch {
                printError("warning: \(error); the secret stays in \(f)")
            }
            if storedInKeyring {
                changes.append(("gateway.credentials_file", nil))
                // The config file may not change (the same settings again): tell the daemon.
                if let pid = ProcessLock.holder(of: configuration.pidFile) { kill(pid_t(pid), SIGHUP) }
                print("secret stored in the keyring (Secret Service, setting=\(SecretName.gateway.rawValue)); \(f) is no longer needed")
            } else {
                changes.append(("gateway.credentials_file", f))
            }
        }
        if let c = absolute(clientCert) { changes.append(("gateway.client_cert", c)) }
        if let k = absolute(clientKey) { changes.append(("gateway.client_key", k)) }
        // The chosen authentication needs a secret: a credentials file (given now or before) or
        // the systemd credential.
        let chosenAuth = auth.flatMap { GatewayAuth(rawValue: $0.lowercased()) } ?? configuration.settings.gatewayAuth
        if chosenAuth != .none, credentialsFile == nil, configuration.settings.gatewayCredentialsFile == nil,
           configuration.environment["CREDENTIALS_DIRECTORY"].map({ FileSystem.exists($0 + "/" + Credentials.credentialName) }) != true,
           Credentials.place(file: nil, environment: configuration.environment, keyring: configuration.settings.secretsKeyring) == .none {
            throw CLIError("--auth \(chosenAuth.rawValue) needs a secret: pass --credentials-file FILE (mode 0600), or provide the systemd credential '\(Credentials.credentialName)'")
        }
        do { try SettingsLoader.update(paths: configuration.paths, changes) } catch { throw CLIError("\(error)") }
        print("gateway set to \(url) in \(configuration.paths.userConfigFile)")
        if ProcessLock.holder(of: configuration.pidFile) != nil { print("the running daemon picks it up now") }
        guard !noTest else { return }
        // The probe of `gateway test`, on what was just saved.
        do {
            let saved = try common.configuration()
            if let endpoint = try saved.endpoint() {
                let verdict = GatewayProbe.run(endpoint: endpoint, envelope: saved.envelope, now: RealTimeClock.now())
                if verdict.ok { print("gateway test: \(verdict.message)") } else { printError("warning: saved, but the gateway test failed: \(verdict.message)") }
            }
        } catch {
            printError("warning: saved, but the gateway cannot be used yet: \(error)")
        }
    }
}

struct GatewayShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the gateway settings (never the secret).")
    @OptionGroup var common: CommonOptions

    func run() throws {
        let s = try common.configuration().settings
        guard let url = s.gatewayURL else {
            print("no gateway set; run: healthspool gateway set https://HOST:PORT/PATH [--ca-file CA.pem]")
            return
        }
        print("url:         \(url)")
        print("format:      \(s.gatewayFormat.rawValue)")
        if s.gatewayFormat.wire != .json { print("topic:       \(s.gatewayTopic)") }
        if s.gatewayFormat.wire == .confluentV3 { print("cluster:     \(s.gatewayCluster)") }
        print("ca file:     \(s.gatewayCAFile ?? "(system CAs)")")
        if let pin = s.gatewayPin { print("pin:         \(pin)") }
        let place = s.gatewayAuth == .none ? SecretPlace.none
            : Credentials.place(file: s.gatewayCredentialsFile, environment: ProcessEnvironment.current, keyring: s.secretsKeyring)
        print("auth:        \(s.gatewayAuth.rawValue)\(place == .none ? "" : " (secret in \(place.text))")")
        if s.gatewayClientCert != nil { print("client cert: \(s.gatewayClientCert!)") }
        print("batch size:  \(s.batchSize), gzip \(s.gzip ? "on" : "off"), keep-alive \(s.keepAlive ? "on" : "off"), timeout \(s.requestTimeoutSeconds) s (connect \(s.connectTimeoutSeconds) s)")
    }
}

struct GatewayUnset: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unset", abstract: "Forget the gateway: samples stay queued locally.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        let configuration = try common.configuration()
        try SettingsLoader.update(paths: configuration.paths, [("gateway.url", nil)])
        print("gateway unset; samples stay queued until one is set")
    }
}

struct GatewayTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Check reachability, TLS, authentication and the topic, without sending samples."
    )
    @OptionGroup var common: CommonOptions

    func run() throws {
        let configuration = try common.configuration()
        let endpoint: GatewayEndpoint
        do {
            guard let e = try configuration.endpoint() else { throw CLIError("no gateway set; run: healthspool gateway set https://HOST:PORT/PATH") }
            endpoint = e
        } catch let e as CLIError { throw e } catch { throw CLIError("\(error)") }
        let verdict = GatewayProbe.run(endpoint: endpoint, envelope: configuration.envelope, now: RealTimeClock.now())
        print(verdict.message)
        if !verdict.ok { throw ExitCode(1) }
    }
}

#if canImport(Glibc)
import Glibc

/// One line on standard error.
func printError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

func currentDirectory() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    return getcwd(&buf, buf.count).map { String(cString: $0) } ?? "."
}
#endif
