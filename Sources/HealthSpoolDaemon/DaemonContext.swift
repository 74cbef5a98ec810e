import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The configuration one healthspool instance works with: its places, settings, time zone and
/// batch envelope, read when the value is made (at start, at each reload, per CLI command) and
/// never again behind a property. Shared by the daemon and the CLI commands that work without
/// it. What must follow a later change of zone asks for it with `currentZone()`.
public struct DaemonContext: Sendable {
    public let paths: Paths
    public let settings: Settings
    public let environment: [String: String]
    /// The envelope every batch carries; /etc/machine-id is read once, when the context is made
    /// (at start and at each reload), not at each batch.
    public let envelope: BatchEnvelope
    /// The machine's zone when the context was made (`TZ`, else `/etc/localtime`; UTC when it
    /// cannot be read): the zone `openStore()` draws day rollups in.
    public let zone: ZoneRules

    public init(environment: [String: String] = ProcessEnvironment.current, overrides: [(String, String)] = []) throws {
        self.environment = environment
        paths = Paths(environment: environment)
        settings = try SettingsLoader.load(paths: paths, environment: environment, overrides: overrides)
        envelope = Self.envelope(settings)
        zone = Self.readZone(environment)
    }

    /// The context with built-in defaults and the environment only, for `healthspool status`
    /// when a config file has an error (it still finds the daemon and the store). Returns the
    /// context and the error.
    public static func ignoringConfigFiles(environment: [String: String] = ProcessEnvironment.current) -> DaemonContext {
        DaemonContext(paths: Paths(environment: environment), environment: environment,
                      settings: (try? SettingsReader.resolve(files: [], environment: environment)) ?? Settings())
    }

    private init(paths: Paths, environment: [String: String], settings: Settings) {
        self.paths = paths
        self.environment = environment
        self.settings = settings
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

    /// Creates the state and runtime directories (0700) and the store file (0600), and opens it,
    /// its daily rollups drawn in the machine's zone with the configured source priority.
    public func openStore(busyTimeout: Duration? = nil) throws -> SampleStore {
        try FileSystem.makeDirectory(stateDir, mode: 0o700)
        if !FileSystem.exists(storePath) { try FileSystem.touch(storePath, mode: 0o600) }
        let store = try SampleStore(path: storePath, busyTimeout: busyTimeout)
        store.rollupPolicy = RollupPolicy(zone: zone, priority: settings.sourcePriority)
        return store
    }

    /// The machine's zone now, read again (`TZ`, else `/etc/localtime`); UTC when it cannot be
    /// read. For what follows a change of zone while it runs (the day view).
    public func currentZone() -> ZoneRules { Self.readZone(environment) }

    static func readZone(_ environment: [String: String]) -> ZoneRules {
        (try? ZoneInfo.current(environment: environment)) ?? .utc
    }

    /// The envelope of batches sent with `settings`.
    static func envelope(_ settings: Settings) -> BatchEnvelope {
        BatchEnvelope(deviceId: settings.deviceId ?? Self.machineDeviceID(), userId: settings.userId ?? Paths.loginName(),
                      appVersion: HealthSpoolVersion.current)
    }

    /// A device id derived from /etc/machine-id (hashed: the machine id itself is not sent).
    static func machineDeviceID() -> String {
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
            auth: settings.gatewayAuth, secret: secret, apiKeyHeader: settings.gatewayAPIKeyHeader, gzip: settings.gzip)
    }

    /// Now, from the real-time clock.
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var t = time_t(ts.tv_sec)
        var local = tm()
        localtime_r(&t, &local)
        return Timestamp(millis: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000, utcOffsetSeconds: Int32(local.tm_gmtoff))
    }
}

/// What a log line or an error says of a context: where it works, never its environment (a
/// `ServiceGroup` error names the service that failed, with its properties; issue 26 found the
/// whole environment of the daemon in the journal that way).
extension DaemonContext: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "DaemonContext(state: \(stateDir), spool: \(spool.path))" }
    public var debugDescription: String { description }
}
