import Testing
@testable import HealthSpoolLock
#if canImport(Glibc)
import Glibc
#endif

/// The package's one lock, on real threads: what one thread changes under it no other thread
/// sees half done, and a waiter runs once what it waits for holds, woken by the change.
@Suite(.timeLimit(.minutes(1))) struct LockTests {
    /// A thread of its own running `body`, detached (nothing joins it).
    static func detached(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        final class Job: @unchecked Sendable {  // handed to one thread, read once there
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, job)
        precondition(started == 0, "pthread_create: \(started)")
        return thread
    }

    /// Runs `body(i)` on `count` threads of their own and returns once all of them ended. The
    /// threads are started and joined by one more thread, so no thread of Swift's cooperative
    /// pool blocks (a test blocking it starves every other test of the run).
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            pthread_detach(detached {
                let workers = (0..<count).map { i in detached { body(i) } }
                for worker in workers { pthread_join(worker, nil) }
                done.resume()
            })
        }
    }

    @Test func incrementsFromManyThreadsAreNoneOfThemLost() async {
        // Without the lock, increments of one value from four threads lose some: each reads,
        // adds and writes back. (No yield inside the lock: on a busy machine a holder descheduled
        // there makes every other thread wait a time slice, and the run took minutes once.)
        let lock = Lock((count: 0, pairs: 0))
        await Self.onThreads(4) { _ in
            for _ in 0..<50_000 {
                lock.withLock { state in
                    state.count += 1
                    state.pairs += 1
                }
            }
        }
        let (count, pairs) = lock.withLock { ($0.count, $0.pairs) }
        #expect(count == 4 * 50_000)
        #expect(pairs == count)
    }

    @Test func aWaiterRunsOnceWhatItWaitsForHoldsAndSeesTheStateAsItWasMade() async {
        // A producer hands out numbers one at a time through a one-slot box; the consumer waits
        // for each. Nothing is taken twice or skipped, and the order is kept.
        let box = Lock<Int?>(nil)
        let taken = Lock<[Int]>([])
        await Self.onThreads(2) { role in
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

    @Test func withLockWakesAWaiterWhenAskedTo() async {
        // The waiter is woken by `withLock(wake: true)`: the waiter returning is the proof. (That a
        // change without `wake` leaves it asleep is not checked: only a timeout could show it.)
        let flag = Lock(false)
        let seen = Lock(false)
        await Self.onThreads(2) { role in
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
