import HealthSpoolConfig
import HealthSpoolDaemon
import HealthSpoolCore
import HealthSpoolLinux
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// The local web interface: the app's screens in the browser, served on the user's own loopback
/// address (`UserLoopbackAddress`, 127.B.C.D from the user id) at `web.port`, and nowhere else.
/// Every page needs a session that a one-time login link from `healthspool ui` opens
/// (`RequestGuard`); every connection is bounded (`WebLimits`). A swift-service-lifecycle
/// `Service`: `run()` serves until the graceful shutdown, and never ends the daemon: a port in
/// use is a warning, tried again every `web.retry_seconds`.
public struct WebInterface: Service, CustomStringConvertible {
    let environment: [String: String]
    let current: CurrentConfiguration
    let address: String
    let port: Int
    let retrySeconds: Int
    let stateDir: String
    /// `secrets.keyring`: whether the web secret may be read from or made in the keyring.
    let keyring: KeyringUse
    let statusFile: String
    let logger: Logger
    let metrics: DaemonMetrics?
    /// The store connections pages borrow: the app's (nil: a pool of its own).
    let stores: StorePool?
    /// "Sync now": the daemon's sync coordinator, called in the process (nil: no daemon).
    let manualSync: ManualSync?
    var limits = WebLimits()

    /// A web interface for the configuration in effect (`current`: the daemon's reloads set it,
    /// and the settings forms reread it, so a toggle shows at once); its address, port and
    /// secret are those of the configuration it started with. With `metrics`, it also serves
    /// `/metrics` to scrapes that send the metrics token (`MetricsToken`). Pages borrow their
    /// store connections from `stores` (the app's), else from a pool of their own; "Sync now"
    /// calls `manualSync` (the daemon's).
    public init(configuration current: CurrentConfiguration, logger: Logger, metrics: DaemonMetrics? = nil, stores: StorePool? = nil,
                manualSync: ManualSync? = nil) {
        self.current = current
        let context = current.value
        environment = context.environment
        address = UserLoopbackAddress.forUser(getuid())
        port = context.settings.webPort
        retrySeconds = context.settings.webRetrySeconds
        stateDir = context.stateDir
        keyring = context.settings.secretsKeyring
        statusFile = WebStatus.path(runtimeDir: context.runtimeDir)
        self.logger = logger
        self.metrics = metrics
        self.stores = stores
        self.manualSync = manualSync
    }

    /// What a log line says of the service: never its environment.
    public var description: String { "WebInterface(http://\(address):\(port)/)" }

    /// Serves until the graceful shutdown. Never throws: a web interface that cannot start is
    /// logged and shown by `healthspool status`, and the daemon runs on without it.
    public func run() async throws {
        defer { WebStatus.remove(file: statusFile) }
        var loaded: [UInt8]?
        var waitSaid = false
        while loaded == nil {
            do { loaded = try WebSecret.loadOrCreate(stateDir: stateDir, keyring: keyring, environment: environment) } catch KeyringError.locked {
                // The secret is in the keyring, locked: wait for it as the daemon does (Daemon+Keyring).
                if !waitSaid {
                    waitSaid = true
                    logger.notice("web interface waits for the keyring to be unlocked (its secret is there)", metadata: ["event": "lock"])
                    WebStatus(url: url, state: .unavailable, problem: "waiting for the keyring to be unlocked").write(file: statusFile)
                }
                guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
                try? await TaskThreadPool.sleep(for: .seconds(2))
            } catch {
                logger.error("web interface not started: \(error)", metadata: ["event": "error"])
                WebStatus(url: url, state: .failed, problem: "\(error)").write(file: statusFile)
                try? await gracefulShutdown()
                return
            }
        }
        guard let secret = loaded else { return }
        var routes: WebRoutes
        do {
            routes = try WebRoutes(configuration: current, address: address, port: port, secret: secret,
                                   usedLinksFile: stateDir + "/web.used-links", stores: stores, manualSync: manualSync)
        } catch {
            logger.error("web interface not started: \(error)", metadata: ["event": "error"])
            WebStatus(url: url, state: .failed, problem: "\(error)").write(file: statusFile)
            try? await gracefulShutdown()
            return
        }
        if let metrics {
            routes.metrics = metrics
            do { routes.metricsToken = try MetricsToken.loadOrCreate(stateDir: stateDir) } catch {
                logger.error("/metrics refuses every scrape: \(error)", metadata: ["event": "error"])
            }
        }
        let peers = WebPeers(limits: limits)
        let responder = routes.router(peers: peers).buildResponder()
        var warnedInUse = false
        while !Task.isCancelled {
            let (url, statusFile, logger) = (self.url, self.statusFile, self.logger)
            let app = Application(
                responder: responder,
                server: .http1(configuration: .init(additionalChannelHandlers: [WebConnectionGuard(peers: peers)],
                                                    httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.headBytes,
                                                                                    maxHeaderListSize: limits.headBytes))),
                configuration: .init(address: .hostname(address, port: port), serverName: nil, backlog: 128,
                                     availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections, logger: logger)),
                onServerRunning: { _ in
                    WebStatus(url: url, state: .listening, problem: nil).write(file: statusFile)
                    logger.info("web interface on \(url) (open it with: healthspool ui)", metadata: ["event": "start"])
                },
                logger: Self.serverLogger(logger))
            do {
                try await app.run()
                return   // the graceful shutdown
            } catch {
                let problem = Self.problem(error, address: address, port: port)
                WebStatus(url: url, state: .unavailable, problem: problem).write(file: statusFile)
                if !warnedInUse {
                    logger.warning("web interface: \(problem); the daemon runs on without it and tries again every \(retrySeconds) s",
                                   metadata: ["event": "web"])
                    warnedInUse = true
                }
            }
            let seconds = retrySeconds
            guard (try? await cancelWhenGracefulShutdown({ try await TaskThreadPool.sleep(for: .seconds(seconds)) })) != nil else { return }
        }
    }

    /// The address the browser opens.
    var url: String { "http://\(address):\(port)/" }

    /// The logger Hummingbird's server and requests write to: at warning or above, so its own
    /// info lines ("Server started and listening on …", which repeats ours above without the
    /// journal fields) stay out of the journal, and with `event=web` on whatever it does write,
    /// so every journal line of the unit is a structured one.
    static func serverLogger(_ logger: Logger) -> Logger {
        var server = logger
        server.logLevel = max(logger.logLevel, .warning)
        server[metadataKey: "event"] = server[metadataKey: "event"] ?? "web"
        return server
    }

    /// Why the listener could not start, in a person's words.
    static func problem(_ error: any Error, address: String, port: Int) -> String {
        let errno = (error as? IOError)?.errnoCode
        if errno == EADDRINUSE || "\(error)".contains("Address already in use") {
            return "port \(port) is used by another program"
        }
        if errno == EADDRNOTAVAIL || "\(error)".contains("Cannot assign requested address") {
            return "address \(address) cannot be used on this machine"
        }
        return "cannot listen on \(address) port \(port): \(error)"
    }
}
