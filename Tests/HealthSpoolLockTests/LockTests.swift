import Testing
@testable import HealthSpoolLock
#if canImport(Glibc)
import Glibc
#endif

/// The package's one lock, on real threads: what one thread changes under it no other thread
/// sees half done, and a waiter runs once what it waits for holds, woken by the change.
@Suite(.timeLimit(.minutes(1))) struct LockTests {
    /// Runs `body(i)` on `count` threads of their own and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        final class Job: @unchecked Sendable {  // handed to one thread, read once there
            let body: @Sendable (Int) -> Void
            let index: Int
            init(_ body: @escaping @Sendable (Int) -> Void, _ index: Int) { self.body = body; self.index = index }
        }
        var threads: [pthread_t] = []
        for i in 0..<count {
            var thread = pthread_t()
            let job = Unmanaged.passRetained(Job(body, i)).toOpaque()
            let started = pthread_create(&thread, nil, { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                job.body(job.index)
                return nil
            }, job)
            precondition(started == 0, "pthread_create: \(started)")
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    @Test func incrementsFromManyThreadsAreNoneOfThemLost() {
        let lock = Lock((count: 0, pairs: 0))
        Self.onThreads(8) { _ in
            for _ in 0..<20_000 {
                lock.withLock { state in
                    // Two fields changed together: a reader must never see one without the other.
                    state.count += 1
                    sched_yield()
                    state.pairs += 1
                }
            }
        }
        let (count, pairs) = lock.withLock { ($0.count, $0.pairs) }
        #expect(count == 8 * 20_000)
        #expect(pairs == count)
    }

    @Test func aWaiterRunsOnceWhatItWaitsForHoldsAndSeesTheStateAsItWasMade() {
        // A producer hands out numbers one at a time through a one-slot box; the consumer waits
        // for each. Nothing is taken twice or skipped, and the order is kept.
        let box = Lock<Int?>(nil)
        let taken = Lock<[Int]>([])
        Self.onThreads(2) { role in
            if role == 0 {
                for n in 1...500 { box.wait(until: { $0 == nil }) { $0 = n } }
            } else {
                for _ in 1...500 {
                    let n = box.wait(until: { $0 != nil }) { slot -> Int in
                        defer { slot = nil }
                        return slot!
                    }
                    taken.withLock { $0.append(n) }
                }
            }
        }
        #expect(taken.withLock { $0 } == Array(1...500))
    }

    @Test func withLockWakesAWaiterOnlyWhenAskedTo() {
        // The waiter is woken by `withLock(wake: true)`; a change without `wake` would leave it
        // asleep, so the test makes the change with it and the waiter returning is the proof.
        let flag = Lock(false)
        let seen = Lock(false)
        Self.onThreads(2) { role in
            if role == 0 {
                flag.wait(until: { $0 }) { _ in seen.withLock { $0 = true } }
            } else {
                usleep(20_000)
                flag.withLock(wake: true) { $0 = true }
            }
        }
        #expect(seen.withLock { $0 })
    }
}
