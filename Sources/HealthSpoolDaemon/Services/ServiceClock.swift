import Dispatch
import HealthSpoolCore

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

/// The real-time clock, with one-shot Dispatch timers. A timer is set for at most a day ahead;
/// its owner re-arms it then (the clock may have moved).
public struct WallServiceClock: ServiceClock {
    public init() {}

    public func now() -> Timestamp { DaemonContext.now() }

    public func schedule(at millis: Int64, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any ServiceTimer {
        let delay = max(0, millis - now().millis)
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + .milliseconds(Int(min(delay, 86_400_000))), leeway: .milliseconds(50))
        // The handler holds its source until it has fired or been cancelled (cancelling releases
        // the handler): a timer fires even when nobody keeps the returned token.
        source.setEventHandler {
            handler()
            source.cancel()
        }
        source.resume()
        return DispatchServiceTimer(source: source)
    }
}

/// A Dispatch timer source as a `ServiceTimer`.
///
/// `@unchecked Sendable`: `DispatchSourceTimer` is thread-safe (cancel may be called from any
/// thread); the struct holds nothing else.
private struct DispatchServiceTimer: ServiceTimer, @unchecked Sendable {
    let source: DispatchSourceTimer
    func cancel() { source.cancel() }
}
