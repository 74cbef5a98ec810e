import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging
import Synchronization
import Testing
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// A `Clock` that moves only when the test advances it; each sleep is announced, so a test knows
/// when the sleeper is waiting. Cancelling a sleeping task ends its sleep at once.
final class ManualSleepClock: Clock, WakeTimer, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }
    private struct Sleeper {
        let deadline: Instant
        let wake: CheckedContinuation<Void, Never>
    }
    private let state = Mutex<(now: Instant, next: Int, sleepers: [Int: Sleeper])>((Instant(offset: .zero), 0, [:]))
    private let sleeps = AsyncStream<Void>.makeStream()

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { s in s.next += 1; return s.next }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
                let due = state.withLock { s -> Bool in
                    if deadline <= s.now || Task.isCancelled { return true }
                    s.sleepers[id] = Sleeper(deadline: deadline, wake: wake)
                    return false
                }
                if due { wake.resume() } else { sleeps.continuation.yield() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.wake.resume()
        }
        try Task.checkCancellation()
    }

    func sleep(for duration: Duration, isolation: isolated (any Actor)?) async throws {
        try await sleep(until: now.advanced(by: duration), tolerance: nil)
    }

    /// Returns once a task has gone to sleep on this clock (each sleep is counted once).
    func nextSleep() async {
        var iterator = sleeps.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Moves the clock forward and wakes the sleepers whose deadline came.
    func advance(by d: Duration) {
        let woken = state.withLock { s -> [Sleeper] in
            s.now = s.now.advanced(by: d)
            let due = s.sleepers.filter { $0.value.deadline <= s.now }
            for key in due.keys { s.sleepers[key] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.wake.resume() }
    }
}

/// The journal scheduler sleeps on the clock it is given: with a manual one it wakes when the
/// clock passes its recheck, and a cancelled scheduler (the daemon's stop) ends while asleep —
/// no wall time passes in either.
@Suite(.timeLimit(.minutes(1))) struct JournalSchedulerClockTests {
    @Test func itWakesOnItsClockAndEndsWhenCancelledWhileAsleep() async throws {
        var template = Array("/tmp/healthspool-journal-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = try? FileSystem.removeTree(dir) }
        let context = try Configuration(environment: ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run", "TZ": "UTC"])
        let clock = ManualSleepClock()
        let scheduler = JournalScheduler(configuration: context, logger: Logger(label: "test"), executor: try ThreadExecutor(name: "test"),
                                         timer: clock, recheck: .seconds(15),
                                         now: { Timestamp(millis: 1_767_261_600_000 + Int64(clock.now.offset.components.seconds) * 1000) })
        let running = Task { await scheduler.run() }
        await clock.nextSleep()
        clock.advance(by: .seconds(15))
        await clock.nextSleep()   // it woke, looked again, and went back to sleep
        running.cancel()
        await running.value
    }
}
