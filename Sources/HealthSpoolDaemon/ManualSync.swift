/// "Sync now" asked inside the daemon's process (the web's sending page): a call into the sync
/// coordinator, not a request to the process's own control socket (which stays for other
/// processes, `healthspool sync`). The daemon hands it to the web at start (`Daemon.manualSync`).
public struct ManualSync: Sendable {
    /// How a manual sync goes, in order; the stream ends after `.done` or `.refused`.
    public enum Event: Sendable {
        /// A type finished.
        case finished(SyncJobResult)
        /// Samples sent so far by the jobs in flight, all types together.
        case inFlight(Int)
        /// Every type finished: each one's result.
        case done([SyncJobResult])
        /// The sync did not start (locked, no gateway, settings the gateway cannot use): why.
        case refused(String)
    }

    let coordinator: SyncCoordinator

    /// Syncs `types` (every type with queued samples when empty) now, past the throttle, as the
    /// control socket's `sync` does; its events as they come.
    public func start(types: [String] = []) async -> AsyncStream<Event> {
        await coordinator.syncNow(types)
    }
}
