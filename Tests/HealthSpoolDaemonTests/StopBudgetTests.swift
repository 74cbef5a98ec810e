import Dispatch
@testable import HealthSpoolDaemon
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The stop budget the daemon's services share: a service waits for its work or the
/// deadline, whichever comes first, and names the part still busy at the deadline. The
/// deadline is on a manual clock: it passes when the test advances it, not after a real wait.
@Suite(.timeLimit(.minutes(1))) struct StopBudgetTests {
    @Test func theDeadlineComesWhenTheClockReachesItAndAPartLeftBusyIsNamed() async {
        let clock = ManualServiceClock()
        let budget = StopBudget(seconds: 10, clock: clock)
        budget.begin()
        let waiting = Task { await budget.untilDeadline() }
        await clock.untilTimerSet()
        clock.advance(by: 9_999)
        #expect(clock.pendingTimers == 1, "not before the deadline")
        clock.advance(by: 1)
        await waiting.value
        budget.unfinished("sync")
        #expect(budget.outcome.unfinished == ["sync"])
        #expect(budget.outcome.millis == 10_000)
    }

    @Test func aWaitForTheDeadlineEndsAtOnceWhenCancelled() async {
        let clock = ManualServiceClock()
        let budget = StopBudget(seconds: 10, clock: clock)
        let waiting = Task { await budget.untilDeadline() }
        await clock.untilTimerSet()
        waiting.cancel()
        await waiting.value
        #expect(clock.pendingTimers == 0, "its timer cancelled")
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
