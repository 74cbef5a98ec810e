import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolLock
import Synchronization

/// A timer set with a `ServiceClock`; cancelling it keeps its handler from running.
public protocol ServiceTimer: Sendable {
    func cancel()
}

/// Time as the daemon's services see it: the time now and one-shot timers that run their
/// handler on a given queue. Production uses `WallServiceClock`; the services' unit tests pass a
/// clock they advance by hand, so a throttle window or a retry passes without waiting.
public protocol ServiceClock: Sendable {
    /// Now (Unix time in milliseconds, with the machine's offset).
    func now() -> Timestamp
    /// Runs `handler` on `queue` once the clock reaches `millis` (at once when it has).
    func schedule(at millis: Int64, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any ServiceTimer
}

extension ServiceClock {
    /// Returns true once the clock reaches `millis`, or false at once when the calling task is
    /// cancelled (a service's loop at a stop). The caller goes on on its own executor
    /// (`isolation`), woken from a serial queue of its own: a caller isolated to an actor on the
    /// coordination queue (retention, on `SpoolIntake`) wakes at its deadline even while the
    /// cooperative pool and Dispatch's global threads are all busy; a nonisolated caller goes on
    /// once the cooperative pool has a thread free.
    func sleep(until millis: Int64, isolation: isolated (any Actor)? = #isolation) async -> Bool {
        let waiter = Lock<CheckedContinuation<Void, Never>?>(nil)
        let timer = Lock<(any ServiceTimer)?>(nil)
        let wake: @Sendable () -> Void = {
            waiter.withLock { c -> CheckedContinuation<Void, Never>? in
                defer { c = nil }
                return c
            }?.resume()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, Never>) in
                waiter.withLock { $0 = continuation }
                let t = schedule(at: millis, on: sleepWakeQueue, wake)
                timer.withLock { $0 = t }
                if Task.isCancelled { wake() }
            }
        } onCancel: {
            timer.withLock { $0 }?.cancel()
            wake()
        }
        return !Task.isCancelled
    }
}

/// Where `ServiceClock.sleep(until:)`'s timers resume their sleeper: a serial queue, which
/// Dispatch gives a thread even when its global ones are all blocked.
private let sleepWakeQueue = DispatchQueue(label: "healthspool.sleep")

/// The real-time clock, with one-shot timers kept by a thread of its own (`ThreadExecutor`,
/// one for the process): a deadline is met from there whatever Dispatch's and the cooperative
/// pool's threads are doing, and only then is the handler sent to `queue`. A timer is set for at
/// most a day ahead; its owner re-arms it then (the clock may have moved).
///
/// The handler still runs on `queue`, a Dispatch queue: a serial queue of its own gets a thread
/// when the global ones are all blocked (Dispatch's overcommit), a handler sent to `.global()`
/// waits for a free one. `WallServiceClockPoolTests` measures both.
public struct WallServiceClock: ServiceClock {
    /// The thread every `WallServiceClock` timer waits on; nil only when the system refused it
    /// (the timers then fall back to Dispatch timer sources).
    static let thread: ThreadExecutor? = try? ThreadExecutor(name: "service timers")

    public init() {}

    public func now() -> Timestamp { RealTimeClock.now() }

    public func schedule(at millis: Int64, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any ServiceTimer {
        let delay = Duration.milliseconds(min(max(0, millis - now().millis), 86_400_000))
        guard let thread = Self.thread else { return DispatchServiceTimer(after: delay, on: queue, handler) }
        // Cancelled is checked on `queue` too: a timer cancelled there after its deadline, while
        // its handler was already on the way, still does not run it.
        let cancelled = CancelFlag()
        let alarm = thread.schedule(at: ContinuousClock.now.advanced(by: delay)) {
            queue.async { if !cancelled.isSet { handler() } }
        }
        return ThreadServiceTimer(alarm: alarm, cancelled: cancelled)
    }
}

/// Whether a timer was cancelled; set from any thread.
private final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}

/// A timer of the `WallServiceClock`'s thread as a `ServiceTimer`.
private struct ThreadServiceTimer: ServiceTimer {
    let alarm: ThreadTimer
    let cancelled: CancelFlag

    func cancel() {
        cancelled.set()
        alarm.cancel()
    }
}

/// A Dispatch timer source as a `ServiceTimer` (when no thread of its own could be started).
///
/// `@unchecked Sendable`: `DispatchSourceTimer` is thread-safe (cancel may be called from any
/// thread); the struct holds nothing else.
private struct DispatchServiceTimer: ServiceTimer, @unchecked Sendable {
    let source: DispatchSourceTimer

    init(after delay: Duration, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let (seconds, attoseconds) = delay.components
        source.schedule(deadline: .now() + .milliseconds(Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)), leeway: .milliseconds(50))
        // The handler holds its source until it has fired or been cancelled (cancelling releases
        // the handler): a timer fires even when nobody keeps the returned token.
        source.setEventHandler {
            handler()
            source.cancel()
        }
        source.resume()
        self.source = source
    }

    func cancel() { source.cancel() }
}
