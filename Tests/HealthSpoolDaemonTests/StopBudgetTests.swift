import Dispatch
@testable import HealthSpoolDaemon
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The stop budget the daemon's services share: work that ends in time is waited for; work
/// still busy at the deadline is left running, named, and the stop goes on. The deadline is
/// on a manual clock: it passes when the test advances it, not after a real wait.
@Suite(.timeLimit(.minutes(1))) struct StopBudgetTests {
    @Test func workThatEndsInTimeIsWaitedFor() async {
        let budget = StopBudget(seconds: 10, clock: ManualServiceClock())
        #expect(await budget.wait(for: "import") {})
        #expect(budget.outcome.unfinished.isEmpty)
    }

    @Test func workStillBusyAtTheDeadlineIsLeftAndNamed() async {
        let clock = ManualServiceClock()
        let budget = StopBudget(seconds: 10, clock: clock)
        budget.begin()
        let release = DispatchSemaphore(value: 0)
        clock.advance(by: 9_999)
        let waiting = Task { await budget.wait(for: "sync") { release.wait() } }
        clock.advance(by: 1)
        #expect(await waiting.value == false)
        #expect(budget.outcome.unfinished == ["sync"])
        #expect(budget.outcome.millis == 10_000)
        release.signal()
    }

    @Test func everyPartSharesTheDeadlineOfTheFirstStop() {
        let clock = ManualServiceClock()
        let budget = StopBudget(seconds: 10, clock: clock)
        let first = budget.begin()
        clock.advance(by: 4_000)
        #expect(budget.begin() == first)
        #expect(budget.deadline == first + 10_000)
    }
}

/// The production clock's timers: one fires even when nobody keeps its token (the status
/// file's trailing update did not, and status went stale), and a cancelled one does not.
@Suite(.timeLimit(.minutes(1))) struct WallServiceClockTests {
    @Test func aTimerNobodyKeepsStillFires() async {
        let clock = WallServiceClock()
        await withCheckedContinuation { (fired: CheckedContinuation<Void, Never>) in
            _ = clock.schedule(at: clock.now().millis, on: .global()) { fired.resume() }
        }
    }

    @Test func aTimerCancelledWhileItsHandlerIsOnTheWayDoesNotRunIt() {
        let clock = WallServiceClock()
        let queue = DispatchQueue(label: "test")
        queue.suspend()   // the deadline passes and the handler is sent, but cannot run yet
        let ran = Mutex(false)
        let timer = clock.schedule(at: clock.now().millis, on: queue) { ran.withLock { $0 = true } }
        usleep(50_000)
        timer.cancel()
        queue.resume()
        queue.sync {}
        #expect(!ran.withLock { $0 })
    }
}
