import Dispatch
@testable import HealthSpoolDaemon
import Testing

/// The stop budget the daemon's services share: work that ends in time is waited for; work
/// still busy at the deadline is left running, named, and the stop goes on.
@Suite struct StopBudgetTests {
    @Test func workThatEndsInTimeIsWaitedFor() async {
        let budget = StopBudget(seconds: 10)
        #expect(await budget.wait(for: "import") {})
        #expect(budget.outcome.unfinished.isEmpty)
    }

    @Test func workStillBusyAtTheDeadlineIsLeftAndNamed() async {
        let budget = StopBudget(seconds: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = await budget.wait(for: "sync") { release.wait() }
        #expect(!finished)
        #expect(budget.outcome.unfinished == ["sync"])
        release.signal()
    }

    @Test func everyPartSharesTheDeadlineOfTheFirstStop() {
        let budget = StopBudget(seconds: 10)
        let first = budget.begin()
        #expect(budget.begin() == first)
        #expect(budget.deadline == first + .seconds(10))
    }
}
