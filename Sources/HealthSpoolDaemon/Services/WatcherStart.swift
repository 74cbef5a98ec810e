import Dispatch
import HealthSpoolLinux
import HealthSpoolLock

/// Start-up's meeting with the services that own an inotify watcher (the spool, the lock flag,
/// the config files): each service waits here (`watch`) until start-up has made the directories
/// and held the intake (`open`), then makes its watcher and says whether it could; start-up
/// waits for all of them before it reads the lock flag and the spool, so a file or a flag that
/// appears meanwhile is seen by a watcher or by that first read. A watcher that cannot be made
/// fails the start with its error, as when `Daemon.start` made them. When start-up fails before
/// the meeting (`abandon`), the services make nothing.
final class WatcherStart: Sendable {
    private struct State {
        /// Whether start-up went on (`open`, true) or failed first (`abandon`, false); nil until then.
        var going: Bool?
        var waiting: [CheckedContinuation<Bool, Never>] = []
        var failure: Error?
    }
    /// How many services report (`watch`).
    let watchers: Int
    private let state = Lock(State())
    private let reported = DispatchSemaphore(value: 0)

    init(watchers: Int) { self.watchers = watchers }

    /// Start-up: the directories exist and the intake is held; blocks (off the cooperative pool)
    /// until every watcher service made its watcher, and throws the first error of one that
    /// could not.
    func open() throws {
        settle(true)
        for _ in 0..<watchers { reported.wait() }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Start-up failed before `open`: the services waiting make no watcher.
    func abandon() { settle(false) }

    /// A service: waits for start-up, then makes its watcher (`make`) and reports it made or
    /// its error. Nil when start-up failed first or the watcher could not be made.
    func watch(_ make: () async throws -> DirectoryWatch) async -> DirectoryWatch? {
        guard await going() else { return nil }
        defer { reported.signal() }
        do { return try await make() } catch {
            state.withLock { if $0.failure == nil { $0.failure = error } }
            return nil
        }
    }

    private func going() async -> Bool {
        await withCheckedContinuation { continuation in
            let going = state.withLock { s -> Bool? in
                if s.going == nil { s.waiting.append(continuation) }
                return s.going
            }
            if let going { continuation.resume(returning: going) }
        }
    }

    private func settle(_ going: Bool) {
        let waiting = state.withLock { s -> [CheckedContinuation<Bool, Never>] in
            guard s.going == nil else { return [] }
            s.going = going
            defer { s.waiting = [] }
            return s.waiting
        }
        for continuation in waiting { continuation.resume(returning: going) }
    }
}
