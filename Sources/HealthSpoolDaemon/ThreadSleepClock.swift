import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The continuous clock, sleeping by blocking a thread of its own in `nanosleep` (slices of a
/// quarter second, so cancellation ends a sleep quickly) rather than on Swift's timers.
/// Measured here: under libfaketime (`faketime`, which the integration tests use to start the
/// daemon just before a reminder or midnight) `Task.sleep` on `ContinuousClock` never returns,
/// while `nanosleep` sleeps as asked. The journal scheduler sleeps at most 15 s at a time, so
/// the thread it blocks is one, for one scheduler.
public struct ThreadSleepClock: Clock {
    public typealias Instant = ContinuousClock.Instant
    private let queue = DispatchQueue(label: "healthspool.journal.sleep")

    public init() {}

    public var now: Instant { ContinuousClock.now }
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let cancelled = Atomic<Bool>(false)
        try await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                queue.async {
                    while !cancelled.load(ordering: .relaxed) {
                        let left = ContinuousClock.now.duration(to: deadline)
                        if left <= .zero { break }
                        let slice = min(left, .milliseconds(250)).components
                        var ts = timespec(tv_sec: Int(slice.seconds), tv_nsec: Int(slice.attoseconds / 1_000_000_000))
                        nanosleep(&ts, nil)
                    }
                    done.resume()
                }
            }
            try Task.checkCancellation()
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
        }
    }
}
