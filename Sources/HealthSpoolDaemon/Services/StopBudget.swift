import Dispatch
import HealthSpoolLock

/// The time a stop may take, shared by every service: the first service told to stop starts the
/// clock, each later one waits at most until the same deadline, so the whole stop fits in
/// `seconds` however many parts are still busy (well inside the unit's `TimeoutStopSec=30`).
final class StopBudget: Sendable {
    private struct State {
        var started: DispatchTime?
        var unfinished: [String] = []
    }
    let seconds: Int
    private let state = Lock(State())

    init(seconds: Int) { self.seconds = seconds }

    /// Starts the clock (once) and returns when the stop began.
    @discardableResult
    func begin() -> DispatchTime {
        state.withLock { s in
            if let started = s.started { return started }
            let now = DispatchTime.now()
            s.started = now
            return now
        }
    }

    /// When every part must have stopped.
    var deadline: DispatchTime { begin() + .seconds(seconds) }

    /// Notes that `part` was still busy at the deadline (its work is left for the next start).
    func unfinished(_ part: String) { state.withLock { $0.unfinished.append(part) } }

    /// The parts left busy, and how long the stop has taken so far in milliseconds.
    var outcome: (unfinished: [String], millis: Int64) {
        let started = begin()
        let left = state.withLock { $0.unfinished }
        return (left, Int64((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000))
    }

    /// Runs `work` (blocking calls allowed) on a thread of Dispatch's, never on a cooperative
    /// thread, and returns whether it finished before the deadline. Work still running at the
    /// deadline is left to finish on its own; `part` is noted as unfinished.
    func wait(for part: String, on queue: DispatchQueue = .global(), _ work: @escaping @Sendable () -> Void) async -> Bool {
        let deadline = self.deadline
        let once = Lock(false)
        let finished: Bool = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resume: @Sendable (Bool) -> Void = { inTime in
                let first = once.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: inTime) }
            }
            queue.async { work(); resume(true) }
            DispatchQueue.global().asyncAfter(deadline: deadline) { resume(false) }
        }
        if !finished { unfinished(part) }
        return finished
    }
}
