/// The daemon's state — starting, watching, locked, syncing, stopping — as a pure state
/// machine beside `SyncScheduler`: events in, actions out. The daemon carries the actions out
/// and shows the state (`status.json`'s `state`, refined by what it is importing).
public struct DaemonStateMachine: Sendable {
    /// Where the daemon is.
    public enum State: String, Sendable, CaseIterable {
        /// Opening the store, the watcher and the control socket.
        case starting
        /// Reading the spool as files arrive; nothing being sent.
        case watching
        /// The lock flag exists: nothing is read from the spool, nothing is sent.
        case locked
        /// Watching, with sync jobs queued or in flight.
        case syncing
        /// A stop was asked for: no new work, the work in progress ends at its next boundary.
        case stopping
    }

    /// What the daemon must do after an event.
    public enum Action: Equatable, Sendable {
        /// Scan the spool for files that arrived unseen and sync the types already queued.
        case readSpool
        /// Stop taking work: the watcher, the control socket, the timers.
        case stopIntake
        /// Ask the import in progress to stop at its next batch boundary.
        case interruptImport
        /// Let the sync worker finish the batch in flight and take no new job.
        case finishBatchInFlight
    }

    public private(set) var state: State = .starting
    private var pendingSyncJobs = 0

    public init() {}

    /// Start-up is done; `locked` tells whether the lock flag exists.
    public mutating func started(locked: Bool) -> [Action] {
        guard state == .starting else { return [] }
        state = locked ? .locked : settled
        return locked ? [] : [.readSpool]
    }

    /// The lock flag appeared (`true`) or went away.
    public mutating func lockChanged(_ locked: Bool) -> [Action] {
        switch (state, locked) {
        case (.watching, true), (.syncing, true):
            state = .locked
            return []
        case (.locked, false):
            state = settled
            return [.readSpool]
        default:
            return []
        }
    }

    /// The number of sync jobs queued or in flight changed.
    public mutating func syncJobsChanged(pending: Int) {
        pendingSyncJobs = max(0, pending)
        if state == .watching || state == .syncing { state = settled }
    }

    /// SIGTERM or SIGINT: the first one stops, later ones change nothing.
    public mutating func stopRequested() -> [Action] {
        guard state != .stopping else { return [] }
        state = .stopping
        return [.stopIntake, .interruptImport, .finishBatchInFlight]
    }

    /// Watching or syncing, by the jobs pending.
    private var settled: State { pendingSyncJobs > 0 ? .syncing : .watching }
}
