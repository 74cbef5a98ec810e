import HealthSpoolLinux
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's own threads for Swift concurrency (issue 39: Dispatch's global queues, whose
/// monitor traps when it cannot open /proc/TID/stat, are left). A task that prefers the pool runs
/// on its threads, before and after awaiting; many tasks all finish on a few threads; the pool's
/// sleep wakes from a thread of its own and is cancelled at once. The process-wide hook
/// (`installAsGlobalExecutor`) is not installed here: it would move every other test's tasks;
/// the integration test test_daemon_under_load.py runs the daemon with it.
@Suite(.timeLimit(.minutes(1))) struct TaskThreadPoolTests {
    @Test func aTaskThatPrefersThePoolRunsOnItsThreadsBeforeAndAfterASleep() async throws {
        let pool = try TaskThreadPool(threads: 2)
        let (before, after) = try await Task(executorPreference: pool) {
            let before = pool.isCurrent
            try await TaskThreadPool.sleep(for: .milliseconds(20))
            return (before, pool.isCurrent)
        }.value
        #expect(before)
        #expect(after)
        #expect(!pool.isCurrent)
    }

    @Test func aThousandTasksAllRunOnTwoThreads() async throws {
        let pool = try TaskThreadPool(threads: 2)
        let counts = Counts()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 {
                group.addTask(executorPreference: pool) {
                    if !pool.isCurrent { counts.elsewhere.add(1, ordering: .relaxed) }
                    counts.ran.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(counts.ran.load(ordering: .relaxed) == 1000)
        #expect(counts.elsewhere.load(ordering: .relaxed) == 0)
    }

    @Test func thePoolsSleepLastsAtLeastWhatWasAskedAndEndsAtOnceWhenCancelled() async throws {
        let start = ContinuousClock.now
        try await TaskThreadPool.sleep(for: .milliseconds(200))
        #expect(start.duration(to: .now) >= .milliseconds(200))
        // Far longer than the suite's time limit: the test passes only if cancelling ends it.
        let sleeper = Task { try await TaskThreadPool.sleep(for: .seconds(3600)) }
        try? await Task.sleep(for: .milliseconds(50))
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func theDefaultSizeIsTwiceTheProcessorsWithinFourToThirtyTwo() {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(TaskThreadPool.defaultThreads == min(32, max(4, 2 * online)))
    }
}

/// How many jobs ran, and how many of them off the pool's threads.
private final class Counts: Sendable {
    let ran = Atomic<Int>(0)
    let elsewhere = Atomic<Int>(0)
}
