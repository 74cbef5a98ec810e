import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging

/// The daemon's process, built once by `healthspool daemon` from the `Configuration` read at
/// start: what lives as long as the process and is shared by its parts. `Daemon` and the
/// services of other modules (the web interface, the ingest endpoint) take from it what they
/// use; nothing reaches it from anywhere else.
///
/// - The configuration as read at start (a reload reads a new value; the daemon hands it to its
///   parts, `Daemon.reload`).
/// - The store connections: the `StorePool` (one writer, a few readers, each on a thread of its
///   own) that short work borrows from (the web's pages and forms). The parts that hold a
///   connection for their whole life open it themselves, once, at start (`SampleStore.connect`):
///   the importer's writer, the sync coordination's, the journal scheduler's, the location log's.
/// - The transport factory (libcurl in production), the clock and the Prometheus counters.
public final class App: Sendable {
    /// The configuration read at start.
    public let configuration: Configuration
    /// The configuration in effect: this one, then each reload's (the web interface reads it).
    public let current: CurrentConfiguration
    public let logger: Logger
    /// The clock of every timer and "now" in the daemon (a manual one in the services' tests).
    public let clock: any ServiceClock
    /// Makes each sender's connection to the gateway.
    public let transport: SyncWorker.TransportFactory
    /// The store connections short work borrows (nothing is opened before the first borrower);
    /// the journal's writes made on them reach the sync coordinator through its `journalWrites`.
    public let stores: StorePool
    /// The counters for Prometheus (`/metrics`, `metrics.textfile`).
    public let metrics: DaemonMetrics

    /// Fails only when the system refuses a thread for the store pool.
    public init(configuration: Configuration, logger: Logger, clock: any ServiceClock = WallServiceClock(),
                transport: @escaping SyncWorker.TransportFactory = SyncWorker.httpsTransport) throws(ThreadExecutorError) {
        self.configuration = configuration
        current = CurrentConfiguration(configuration)
        self.logger = logger
        self.clock = clock
        self.transport = transport
        stores = try StorePool(daemonReadsWrites: true, liveStatus: LiveStatus())
        metrics = DaemonMetrics(storePath: configuration.storePath, started: clock.now())
    }
}
