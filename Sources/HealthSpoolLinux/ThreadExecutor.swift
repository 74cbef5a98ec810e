import CSystemd
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How a scheduler waits: on its caller's executor (`isolation`), never through Swift's
/// cooperative pool. The daemon's `ThreadExecutor` is one; unit tests pass a clock they advance
/// by hand.
///
/// The isolation is an explicit parameter: a `nonisolated(nonsending)` requirement called
/// through `any WakeTimer` was measured resuming its caller on the pool (Swift 6.3.1).
public protocol WakeTimer: Sendable {
    /// Returns after `duration` on `isolation`, or throws `CancellationError` as soon as the
    /// task is cancelled.
    func sleep(for duration: Duration, isolation: isolated (any Actor)?) async throws
}

/// A serial executor with a thread of its own, which also keeps the timers of what runs on it.
///
/// On Linux, Swift's cooperative pool and Dispatch's global queues are one set of threads: when
/// blocking work fills them (a release build, many imports), a task resumed there waits, and a
/// 300 ms sleep was measured taking 33 s. An actor whose `unownedExecutor` is a `ThreadExecutor`
/// runs its jobs here, one at a time in the order they came, and `sleep(for:)` ends at its
/// deadline from here. A continuation resumed from another thread sends its task first to the
/// task's executor (the pool, unless the task prefers another) and only then to the actor; so
/// the actor's long-running task also takes this executor as its task executor
/// (`withTaskExecutorPreference`), and a reminder rings at its minute whatever the pool does. Deadlines are
/// on the monotonic clock and waited for with `poll(2)` timeouts (libfaketime, which the
/// integration tests use, leaves those as asked; it made `Task.sleep` never return).
///
/// The thread lives as long as the process: make one per long-lived owner (the journal's
/// scheduler), not per request.
public final class ThreadExecutor: SerialExecutor, TaskExecutor, WakeTimer, Sendable {
    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        let wake: UnsafeContinuation<Void, any Error>
    }

    private struct Alarm {
        let deadline: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    private struct State {
        var jobs: [UnownedJob] = []
        var sleepers: [UInt64: Sleeper] = [:]
        var alarms: [UInt64: Alarm] = [:]
        var nextSleeper: UInt64 = 0
    }

    /// What the thread is for, in messages.
    public let name: String
    private let state = Mutex(State())
    private let wakeFD: Int32
    /// The thread's `pthread_t`, for `checkIsolated()`; 0 until it has started.
    private let threadID = Atomic<UInt>(0)

    /// Starts the thread. Fails only when the system refuses an eventfd or a thread.
    public init(name: String) throws(ThreadExecutorError) {
        self.name = name
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0 else { throw ThreadExecutorError(call: "eventfd", code: errno) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadExecutor>.fromOpaque(raw!).takeRetainedValue().serve()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<ThreadExecutor>.fromOpaque(context).release()
            close(wakeFD)
            throw ThreadExecutorError(call: "pthread_create", code: rc)
        }
        pthread_detach(thread)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        wake()
    }

    public func checkIsolated() {
        precondition(pthread_self() == threadID.load(ordering: .acquiring), "not on the \(name) thread")
    }

    /// Returns after `duration` on the caller's executor (resumed from this thread, so an actor of
    /// this executor never waits for the cooperative pool), or throws `CancellationError` at once
    /// when the task is cancelled.
    public func sleep(for duration: Duration, isolation: isolated (any Actor)? = #isolation) async throws {
        try await sleep(until: ContinuousClock.now.advanced(by: duration), isolation: isolation)
    }

    /// Returns at `deadline`; see `sleep(for:)`.
    public func sleep(until deadline: ContinuousClock.Instant, isolation: isolated (any Actor)? = #isolation) async throws {
        let id = state.withLock { state in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (wake: UnsafeContinuation<Void, any Error>) in
                // The cancellation handler may have run before this: it then found nothing to end.
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, wake: wake)
                    return false
                }
                if cancelled { wake.resume(throwing: CancellationError()) } else { self.wake() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.wake.resume(throwing: CancellationError())
        }
    }

    /// Runs `action` on this thread at `deadline` (at once when it has passed), unless the
    /// returned timer is cancelled first. For callers outside Swift concurrency (the services'
    /// `WallServiceClock`): `action` must be short, it delays the thread's jobs and sleeps.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> ThreadTimer {
        let id = state.withLock { state in
            state.nextSleeper += 1
            state.alarms[state.nextSleeper] = Alarm(deadline: deadline, action: action)
            return state.nextSleeper
        }
        wake()
        return ThreadTimer(executor: self, id: id)
    }

    /// Forgets the alarm `id`; its action does not run unless it already has begun.
    fileprivate func cancelAlarm(_ id: UInt64) {
        _ = state.withLock { $0.alarms.removeValue(forKey: id) }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// The thread: ends the sleeps that are due, runs the jobs that came, and waits in `poll`
    /// for the next deadline or the next job.
    private func serve() {
        threadID.store(pthread_self(), ordering: .releasing)
        while true {
            let now = ContinuousClock.now
            let (due, rung): ([Sleeper], [Alarm]) = state.withLock { state in
                let due = state.sleepers.filter { $0.value.deadline <= now }
                for id in due.keys { state.sleepers[id] = nil }
                let rung = state.alarms.filter { $0.value.deadline <= now }
                for id in rung.keys { state.alarms[id] = nil }
                return (due.values.sorted { $0.deadline < $1.deadline }, rung.values.sorted { $0.deadline < $1.deadline })
            }
            for sleeper in due { sleeper.wake.resume() }
            for alarm in rung { alarm.action() }
            let jobs: [UnownedJob] = state.withLock { state in
                defer { state.jobs.removeAll(keepingCapacity: true) }
                return state.jobs
            }
            // Serial: every job runs isolated to this executor, and with it as the task executor
            // (what a task that prefers it resumes on after a continuation, see `run(_:)`).
            for job in jobs { job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor()) }
            let timeout: Int32 = state.withLock { state in
                if !state.jobs.isEmpty { return 0 }
                guard let next = (state.sleepers.values.map(\.deadline) + state.alarms.values.map(\.deadline)).min() else { return -1 }
                return Self.pollMillis(ContinuousClock.now.duration(to: next))
            }
            guard timeout != 0 else { continue }
            var fd = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, timeout) > 0 {
                var count: UInt64 = 0
                _ = read(wakeFD, &count, 8)
            }
        }
    }

    /// A `poll` timeout for `left`: rounded up to the millisecond (a wake-up never comes before
    /// its deadline), at most a minute (the loop then looks again), at least 1.
    static func pollMillis(_ left: Duration) -> Int32 {
        let (seconds, attoseconds) = left.components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 1 }
        if seconds >= 60 { return 60_000 }
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(max(1, millis))
    }
}

/// An action set with `ThreadExecutor.schedule(at:_:)`; cancelling it keeps the action from
/// running unless it already has begun.
public struct ThreadTimer: Sendable {
    fileprivate let executor: ThreadExecutor
    fileprivate let id: UInt64

    public func cancel() { executor.cancelAlarm(id) }
}

/// The system refused what a `ThreadExecutor` needs.
public struct ThreadExecutorError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let code: Int32
    public var description: String { "cannot start a thread of its own: \(call): \(String(cString: strerror(code)))" }
}
