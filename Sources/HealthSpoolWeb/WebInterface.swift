@preconcurrency import HealthSpoolDaemon
import Hummingbird
import Logging
import ServiceLifecycle

/// The local web interface: the app's screens in the browser, served on 127.0.0.1 and ::1 only,
/// at `web.port`. Every page needs a session that a one-time login link from `healthspool ui`
/// opens (`RequestGuard`). A swift-service-lifecycle `Service`: `run()` serves until cancelled.
public struct WebInterface: Service {
    let environment: [String: String]
    let port: Int
    let stateDir: String
    let logger: Logger
    let metrics: DaemonMetrics?

    /// A web interface for the configuration the daemon started with; each page reads the
    /// configuration afresh, so toggles and reloads show at once. With `metrics`, it also serves
    /// `/metrics` to scrapes that send the metrics token (`MetricsToken`).
    public init(context: DaemonContext, logger: Logger, metrics: DaemonMetrics? = nil) {
        environment = context.environment
        port = context.settings.webPort
        stateDir = context.stateDir
        self.logger = logger
        self.metrics = metrics
    }

    /// Serves until the task is cancelled. A port in use is logged, and the daemon runs on.
    public func run() async throws {
        let secret: [UInt8]
        do { secret = try WebSecret.loadOrCreate(stateDir: stateDir) } catch {
            logger.error("web interface not started: \(error)", metadata: ["event": "error"])
            return
        }
        var routes = WebRoutes(environment: environment, port: port, secret: secret)
        if let metrics {
            routes.metrics = metrics
            do { routes.metricsToken = try MetricsToken.loadOrCreate(stateDir: stateDir) } catch {
                logger.error("/metrics refuses every scrape: \(error)", metadata: ["event": "error"])
            }
        }
        let router = routes.router()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for host in ["127.0.0.1", "::1"] {
                let app = Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
                                      logger: logger)
                group.addTask {
                    do { try await app.run() } catch {
                        // ::1 is missing on hosts without IPv6; 127.0.0.1 still serves.
                        logger.error("web interface: cannot listen on \(host) port \(port): \(error); set web.port to a free port",
                                     metadata: ["event": "error"])
                    }
                }
            }
            logger.info("web interface on http://127.0.0.1:\(port)/ (open it with: healthspool ui)", metadata: ["event": "start"])
            try await group.waitForAll()
        }
    }
}
