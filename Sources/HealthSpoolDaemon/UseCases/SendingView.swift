import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// What the web's sending page (`/sync`) shows: the service's state, the last successful send,
/// the gateway's problem, what waits to be sent per type, and the recent sends; from
/// `StatusReport` (the same report as `healthspool status`) and the sync history.
public struct SendingView: Sendable {
    /// One recent send.
    public struct Attempt: Sendable {
        public var started: Timestamp
        public var sent: Bool
        public var error: String?
        public var count: Int
    }

    /// The daemon's state: idle, importing, syncing, success, error, locked, stopped, stopping.
    public var state: String
    /// When the data was last sent successfully (ISO 8601), nil: never.
    public var lastSent: String?
    /// Why the gateway stopped or its last error.
    public var problem: String?
    /// Whether no receiving server is set.
    public var noGateway: Bool
    /// Types with queued records, and how many (counted up to `queuedCountLimit` + 1).
    public var queued: [(type: String, count: Int)]
    /// The last `historyLimit` sends, newest first.
    public var history: [Attempt]

    /// The sending page's view; queued counts past `queuedCountLimit` are not counted further.
    /// Reads the store through `store` (the web's lent connection), else through one connection
    /// of its own when the store exists.
    static func make(configuration: Configuration, queuedCountLimit: Int, historyLimit: Int = 8, store: SampleStore?,
                     liveStatus: LiveStatus? = nil) throws -> SendingView {
        let store = store ?? (FileSystem.exists(configuration.storePath) ? try? SampleStore(path: configuration.storePath) : nil)
        let report = try StatusReport(configuration: configuration, queuedCountLimit: queuedCountLimit, store: store, liveStatus: liveStatus).json
        let history = (try? store?.syncHistory(limit: historyLimit)) ?? []
        return SendingView(
            state: report["daemon"]?["state"]?.stringValue ?? "stopped", lastSent: report["lastSuccessfulSync"]?["at"]?.stringValue,
            problem: report["gateway"]?["stoppedReason"]?.stringValue ?? report["gateway"]?["error"]?.stringValue,
            noGateway: report["gateway"]?["url"] == .null,
            queued: (report["store"]?["queuedByType"]?.objectValue ?? []).compactMap { t, n in (n.intValue ?? 0) > 0 ? (t, n.intValue ?? 0) : nil },
            history: history.map { Attempt(started: $0.started, sent: $0.outcome == "success", error: $0.error, count: $0.count) })
    }
}
