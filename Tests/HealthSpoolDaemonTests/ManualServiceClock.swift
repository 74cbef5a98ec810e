import Dispatch
import HealthSpoolCore
import Synchronization
@testable import HealthSpoolDaemon

/// A `ServiceClock` that moves only when a test advances it: timers whose time has come run
/// (on their queue, in order of deadline) during `advance`, so a throttle window, a retry or a
/// stop budget passes without waiting.
final class ManualServiceClock: ServiceClock {
    private struct Entry {
        let at: Int64
        let order: Int
        let queue: DispatchQueue
        let handler: @Sendable () -> Void
        let timer: ManualTimer
    }
    private struct State {
        var millis: Int64
        var order = 0
        var pending: [Entry] = []
        /// Tests waiting for a timer to be set (`untilTimerSet`).
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(millis: Int64 = 1_767_261_600_000) { state = Mutex(State(millis: millis)) }

    func now() -> Timestamp { Timestamp(millis: state.withLock { $0.millis }, utcOffsetSeconds: 0) }

    func schedule(at millis: Int64, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any ServiceTimer {
        let timer = ManualTimer()
        let (due, waiting): (Bool, [CheckedContinuation<Void, Never>]) = state.withLock { s in
            if millis <= s.millis { return (true, []) }
            s.order += 1
            s.pending.append(Entry(at: millis, order: s.order, queue: queue, handler: handler, timer: timer))
            defer { s.waiting = [] }
            return (false, s.waiting)
        }
        if due { queue.async { if !timer.isCancelled { handler() } } }
        for w in waiting { w.resume() }
        return timer
    }

    /// Returns once a timer is waiting for the clock (a service has set its next wake-up).
    func untilTimerSet() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let set = state.withLock { s in
                if s.pending.contains(where: { !$0.timer.isCancelled }) { return true }
                s.waiting.append(continuation)
                return false
            }
            if set { continuation.resume() }
        }
    }

    /// Moves the clock forward and runs the timers that came due.
    func advance(by millis: Int64) {
        let due: [Entry] = state.withLock { s in
            s.millis += millis
            let now = s.millis
            let due = s.pending.filter { $0.at <= now }.sorted { ($0.at, $0.order) < ($1.at, $1.order) }
            s.pending.removeAll { $0.at <= now }
            return due
        }
        for e in due { e.queue.async { if !e.timer.isCancelled { e.handler() } } }
    }

    /// When the earliest timer still waiting is due (Unix millis).
    var nextDeadline: Int64? { state.withLock { $0.pending.filter { !$0.timer.isCancelled }.map(\.at).min() } }

    /// The timers still waiting (not cancelled).
    var pendingTimers: Int { state.withLock { $0.pending.filter { !$0.timer.isCancelled }.count } }
}

/// A timer of the manual clock.
final class ManualTimer: ServiceTimer {
    private let cancelled = Atomic<Bool>(false)
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
