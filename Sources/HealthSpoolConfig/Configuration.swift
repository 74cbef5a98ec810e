import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux

/// The configuration one healthspool instance works with, as a value: its places, settings,
/// time zone and batch envelope, read when the value is made (by `main` at start and by the
/// daemon at each reload; once per CLI command) and never again behind a property. It opens
/// nothing: the store is opened by whoever owns the connection (`SampleStore.connect(to:)`, the
/// `App`'s `StorePool`). What must follow a later change of zone asks for it with `currentZone()`.
public struct Configuration: Sendable {
    public let paths: Paths
    public let settings: Settings
    public let environment: [String: String]
    /// The envelope every batch carries; /etc/machine-id is read once, when the configuration
    /// is read (at start and at each reload), not at each batch.
    public let envelope: BatchEnvelope
    /// The machine's zone when the configuration was read (`TZ`, else `/etc/localtime`; UTC
    /// when it cannot be read): the zone the store's day rollups are drawn in.
    public let zone: ZoneRules

    public init(environment: [String: String] = ProcessEnvironment.current, overrides: [(String, String)] = []) throws {
        self.environment = environment
        paths = Paths(environment: environment)
        settings = try SettingsLoader.load(paths: paths, environment: environment, overrides: overrides)
        envelope = Self.envelope(settings)
        zone = Self.readZone(environment)
    }

    /// The configuration with built-in defaults and the environment only, for `healthspool
    /// status` when a config file has an error (it still finds the daemon and the store).
    public static func ignoringConfigFiles(environment: [String: String] = ProcessEnvironment.current) -> Configuration {
        Configuration(paths: Paths(environment: environment),
                      settings: (try? SettingsReader.resolve(files: [], environment: environment)) ?? Settings(), environment: environment)
    }

    /// A configuration from its parts (the daemon keeps some settings across a reload); the
    /// envelope and the zone are read now.
    package init(paths: Paths, settings: Settings, environment: [String: String]) {
        self.paths = paths
        self.settings = settings
        self.environment = environment
        envelope = Self.envelope(settings)
        zone = Self.readZone(environment)
    }

    public var spool: SpoolDirectory { SpoolDirectory(path: paths.expand(settings.spoolDir)) }
    public var stateDir: String { paths.expand(settings.stateDir) }
    public var storePath: String { stateDir + "/healthspool.db" }
    /// The lock flag: while it exists, nothing is read from the spool and nothing is sent.
    public var lockFlagPath: String { stateDir + "/locked" }
    public var runtimeDir: String { paths.runtimeDir }
    public var pidFile: String { runtimeDir + "/daemon.pid" }
    public var statusFile: String { runtimeDir + "/status.json" }
    public var controlSocket: String { runtimeDir + "/control.sock" }

    /// The machine's zone now, read again (`TZ`, else `/etc/localtime`); UTC when it cannot be
    /// read. For what follows a change of zone while it runs (the day view).
    public func currentZone() -> ZoneRules { Self.readZone(environment) }

    package static func readZone(_ environment: [String: String]) -> ZoneRules {
        (try? ZoneInfo.current(environment: environment)) ?? .utc
    }

    /// The envelope of batches sent with `settings`.
    package static func envelope(_ settings: Settings) -> BatchEnvelope {
        BatchEnvelope(deviceId: settings.deviceId ?? Self.machineDeviceID(), userId: settings.userId ?? Paths.loginName(),
                      appVersion: HealthSpoolVersion.current)
    }

    /// A device id derived from /etc/machine-id (hashed: the machine id itself is not sent).
    package static func machineDeviceID() -> String {
        let raw = (try? FileSystem.readText("/etc/machine-id")) ?? nil
        let seed = (raw ?? "unknown").trimmingSpaces
        let digest = SHA256.hash(Array(("healthspool-device:" + seed).utf8))
        return SampleID(bytes: Array(digest[0..<16])).description
    }

    /// The gateway endpoint, or nil when none is configured. Throws when the configuration is
    /// unusable (http://, unsafe credentials file).
    public func endpoint() throws -> GatewayEndpoint? {
        guard let url = settings.gatewayURL else { return nil }
        try validateGatewayURL(url)
        let secret = try Credentials.load(file: settings.gatewayCredentialsFile.map(paths.expand), environment: environment,
                                          keyring: settings.secretsKeyring)
        return GatewayEndpoint(
            url: url, format: settings.gatewayFormat, topic: settings.gatewayTopic, cluster: settings.gatewayCluster,
            tls: TLSOptions(caFile: settings.gatewayCAFile.map(paths.expand), pinnedPublicKey: settings.gatewayPin,
                            clientCert: settings.gatewayClientCert.map(paths.expand),
                            clientKey: settings.gatewayClientKey.map(paths.expand),
                            timeoutSeconds: settings.requestTimeoutSeconds, connectTimeoutSeconds: settings.connectTimeoutSeconds,
                            keepAlive: settings.keepAlive),
            auth: settings.gatewayAuth, secret: secret, apiKeyHeader: settings.gatewayAPIKeyHeader, gzip: settings.gzip,
            maxBodyBytes: settings.maxBodyBytes)
    }
}

/// What a log line or an error says of a configuration: where it works, never its environment (a
/// `ServiceGroup` error names the service that failed, with its properties; issue 26 found the
/// whole environment of the daemon in the journal that way).
extension Configuration: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "Configuration(state: \(stateDir), spool: \(spool.path))" }
    public var debugDescription: String { description }
}

extension Configuration {
    /// What names the person in the FHIR file's stable ids: the user id and the device id sent to
    /// the gateway (never their name, which may change).
    public var fhirPatientKey: String {
        let e = Self.envelope(settings)
        return e.userId + "@" + e.deviceId
    }
}
