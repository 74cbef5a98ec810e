import HealthSpoolLock

/// The time a stop may take, shared by every service: the first service told to stop starts the
/// clock, each later one waits at most until the same deadline, so the whole stop fits in
/// `seconds` however many parts are still busy (well inside the unit's `TimeoutStopSec=30`).
final class StopBudget: Sendable {
    private struct State {
        var started: Int64?
        var unfinished: [String] = []
    }
    let seconds: Int
    let clock: any ServiceClock
    private let state = Lock(State())

    init(seconds: Int, clock: any ServiceClock = WallServiceClock()) {
        self.seconds = seconds
        self.clock = clock
    }

    /// Starts the clock (once) and returns when the stop began (Unix millis).
    @discardableResult
    func begin() -> Int64 {
        state.withLock { s in
            if let started = s.started { return started }
            let now = clock.now().millis
            s.started = now
            return now
        }
    }

    /// When every part must have stopped (Unix millis).
    var deadline: Int64 { begin() + Int64(seconds) * 1000 }

    /// Notes that `part` was still busy at the deadline (its work is left for the next start).
    func unfinished(_ part: String) { state.withLock { $0.unfinished.append(part) } }

    /// The parts left busy, and how long the stop has taken so far in milliseconds.
    var outcome: (unfinished: [String], millis: Int64) {
        let started = begin()
        let left = state.withLock { $0.unfinished }
        return (left, max(0, clock.now().millis - started))
    }

    /// Returns at the deadline, or at once when the calling task is cancelled.
    func untilDeadline() async {
        _ = await clock.sleep(until: deadline)
    }
}
