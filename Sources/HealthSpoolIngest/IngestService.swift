import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Logging
import ServiceLifecycle

/// The ingest endpoint (`ingest.listen`) as one entry of the daemon's service group: it starts
/// the server on threads of its own, and at a stop ends intake first, discarding any body still
/// arriving, within `stopSeconds`. An endpoint that cannot start is logged; the daemon runs on.
public struct IngestService: Service {
    let configuration: Configuration
    let logger: Logger
    /// How long a stop waits for connections to end (they are woken at once; this bounds a
    /// body being checked).
    public static let stopSeconds = 5.0

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        guard await waitForKeyring() else { return }
        let server = start()
        try? await gracefulShutdown()
        guard let server else { return }
        let left = await Self.offPool { server.stop(timeoutSeconds: Self.stopSeconds) }
        if left > 0 {
            logger.warning("ingest: \(left) connection(s) still running at the stop; their bodies are not kept", metadata: ["event": "ingest"])
        }
    }

    /// Waits while the token is in the keyring and the keyring is locked (said once), as the
    /// daemon does; false when the daemon stops meanwhile.
    func waitForKeyring() async -> Bool {
        guard configuration.settings.ingestListen != nil else { return true }
        var said = false
        while true {
            let (use, environment) = (configuration.ingestTokenKeyring, configuration.environment)
            let state = await Self.offPool {
                (try? SecretService.with(use: use, environment: environment) { service throws(KeyringError) in try service.state(of: .ingest) }) ?? nil
            }
            guard state == .locked else { return true }
            if !said {
                said = true
                logger.notice("ingest endpoint waits for the keyring to be unlocked (its token is there)", metadata: ["event": "lock"])
            }
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return false }
            try? await Task.sleep(for: .seconds(2))
        }
    }

    /// The running server, or nil (logged) when the endpoint cannot start.
    func start() -> IngestServer? {
        guard let listen = configuration.settings.ingestListen else { return nil }
        do {
            let token = try IngestToken.loadOrCreate(path: configuration.ingestTokenPath, keyring: configuration.ingestTokenKeyring, environment: configuration.environment)
            if try IngestCertificate.ensure(configuration: configuration) {
                logger.notice("ingest: made a self-signed certificate \(configuration.ingestCertPath)", metadata: ["event": "ingest"])
            }
            try? FileSystem.makeDirectory(configuration.spool.path, mode: 0o700)
            var serverSettings = IngestServer.Configuration(
                listen: listen, certPath: configuration.ingestCertPath, keyPath: configuration.ingestKeyPath, token: token,
                spoolDir: configuration.spool.path, maxBodyBytes: configuration.settings.ingestMaxBodyBytes,
                maxConnections: configuration.settings.ingestMaxConnections)
            serverSettings.limits = IngestLimits.from(environment: configuration.environment)
            let server = try IngestServer(serverSettings, logger: logger)
            try server.start()
            logger.notice("ingest endpoint on \(configuration.ingestURL ?? ""), certificate SHA-256 fingerprint \(configuration.ingestFingerprint() ?? "unknown"), token in \(configuration.ingestTokenPath)",
                          metadata: ["event": "start"])
            return server
        } catch {
            logger.error("ingest endpoint not started: \(error)", metadata: ["event": "error"])
            return nil
        }
    }

    /// Runs a blocking call on a thread of its own and awaits its result.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            if !IngestThread.detach({ continuation.resume(returning: body()) }) { continuation.resume(returning: body()) }
        }
    }
}

extension IngestLimits {
    /// The default limits; the integration tests shorten the body limits with
    /// `HEALTHSPOOL_INGEST_BODY_IDLE_SECONDS` and `HEALTHSPOOL_INGEST_BODY_TOTAL_SECONDS`.
    static func from(environment: [String: String]) -> IngestLimits {
        var limits = IngestLimits()
        if let v = environment["HEALTHSPOOL_INGEST_BODY_IDLE_SECONDS"].flatMap(Double.init), v > 0 { limits.bodyIdleSeconds = v }
        if let v = environment["HEALTHSPOOL_INGEST_BODY_TOTAL_SECONDS"].flatMap(Double.init), v > 0 { limits.bodyTotalSeconds = v }
        return limits
    }
}
