import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging
import ServiceLifecycle

/// The ingest endpoint (`ingest.listen`) as one entry of the daemon's service group: it starts
/// the server on threads of its own, and at a stop ends intake first, discarding any body still
/// arriving, within `stopSeconds`. An endpoint that cannot start is logged and the daemon runs
/// on; one that cannot listen (its port held by another program, its address not yet on the
/// machine) is tried again every `ingest.retry_seconds`, as the web interface is. Its state is
/// written for `healthspool status` (`IngestStatus`): serving, or not and why, and who holds the port.
public struct IngestService: Service {
    let configuration: Configuration
    let logger: Logger
    let metrics: (any IngestCounters)?
    /// How long a stop waits for connections to end (they are woken at once; this bounds a
    /// body being checked).
    public static let stopSeconds = 5.0

    public init(configuration: Configuration, logger: Logger, metrics: (any IngestCounters)? = nil) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
    }

    var statusFile: String { IngestStatus.path(runtimeDir: configuration.runtimeDir) }

    public func run() async throws {
        defer { IngestStatus.remove(file: statusFile) }
        guard await waitForKeyring() else { return }
        var server: IngestServer?
        var said: String?
        while server == nil {
            let attempt = start()
            switch attempt {
            case .success(let s): server = s
            case .failure(let error):
                let url = configuration.ingestURL ?? ""
                guard error.isRetryable else {
                    logger.error("ingest endpoint not started: \(error)", metadata: ["event": "error"])
                    IngestStatus(url: url, state: .failed, problem: "\(error)").write(file: statusFile)
                    metrics?.ingestServing(false)
                    try? await gracefulShutdown()
                    return
                }
                let seconds = configuration.settings.ingestRetrySeconds
                IngestStatus(url: url, state: .unavailable, problem: error.problem, holderUID: error.holder, retrySeconds: seconds).write(file: statusFile)
                metrics?.ingestServing(false)
                // Said once per problem, not at every try.
                if said != error.problem {
                    said = error.problem
                    logger.warning("ingest endpoint not serving: \(error); the daemon runs on without it and tries again every \(seconds) s",
                                   metadata: ["event": "ingest"])
                }
                guard (try? await cancelWhenGracefulShutdown({ try await TaskThreadPool.sleep(for: .seconds(seconds)) })) != nil else { return }
            }
        }
        guard let server else { return }
        try? await gracefulShutdown()
        metrics?.ingestServing(false)
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
            try? await TaskThreadPool.sleep(for: .seconds(2))
        }
    }

    /// The running server, or why the endpoint cannot start.
    func start() -> Result<IngestServer, IngestError> {
        guard let listen = configuration.settings.ingestListen else { return .failure(.setting("ingest.listen", "not set")) }
        do throws(IngestError) {
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
            serverSettings.metrics = metrics
            let server = try IngestServer(serverSettings, logger: logger)
            try server.start()
            let url = configuration.ingestURL ?? ""
            IngestStatus(url: url, state: .listening).write(file: statusFile)
            metrics?.ingestServing(true)
            for reason in IngestRefusal.allCases { metrics?.ingestRefused(reason.rawValue, count: 0) }
            logger.notice("ingest endpoint on \(url), certificate SHA-256 fingerprint \(configuration.ingestFingerprint() ?? "unknown"), token in \(configuration.ingestTokenPath)",
                          metadata: ["event": "start"])
            return .success(server)
        } catch {
            return .failure(error)
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
