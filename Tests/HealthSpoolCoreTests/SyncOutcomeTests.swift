@testable import HealthSpoolCore
import Testing

@Suite struct SyncOutcomeTests {
    @Test(arguments: [
        (0, 0, false, SyncOutcome.success),
        (5, 0, false, .success),
        (5, 1, false, .partial),     // some parked as dead letters
        (0, 2, false, .partial),     // all parked: the job itself did not fail
        (3, 0, true, .partial),      // an error after some were sent
        (0, 0, true, .failed),
    ])
    func oneJob(sent: Int, parked: Int, failed: Bool, expected: SyncOutcome) {
        #expect(SyncOutcome.job(sent: sent, parked: parked, failed: failed) == expected)
    }

    /// The defect issue 15 names: one type succeeding with nothing to send and one failing was
    /// "partial" through the daemon and "failed" (exit 1) in-process. One rule now: partial.
    @Test func aTypeWithNothingToSendBesideOneThatFailedIsPartial() {
        let outcome = SyncOutcome.combining([(outcome: .success, sent: 0), (outcome: .failed, sent: 0)])
        #expect(outcome == .partial)
        #expect(outcome.exitStatus == 0)
    }

    @Test func everyJobFailingIsFailedAndExitsOne() {
        let outcome = SyncOutcome.combining([(outcome: SyncOutcome.failed, sent: 0), (outcome: .failed, sent: 0)])
        #expect(outcome == .failed && outcome.exitStatus == 1)
    }

    @Test func allSucceedingOrNoJobsIsSuccess() {
        #expect(SyncOutcome.combining([(outcome: SyncOutcome.success, sent: 3), (outcome: .success, sent: 0)]) == .success)
        #expect(SyncOutcome.combining([(outcome: SyncOutcome, sent: Int)]()) == .success)
    }

    @Test func samplesDeliveredBeforeAFailureArePartial() {
        #expect(SyncOutcome.combining([(outcome: SyncOutcome.partial, sent: 10), (outcome: .failed, sent: 0)]) == .partial)
    }
}

@Suite struct ImportOutcomeTests {
    @Test func aProblemAfterStoredSamplesIsPartialAndWithoutIsFailed() {
        #expect(ImportOutcome.parsed(stored: 3, problem: true) == .partial)
        #expect(ImportOutcome.parsed(stored: 0, problem: true) == .failed)
        #expect(ImportOutcome.parsed(stored: 0, problem: false) == .imported)
    }

    @Test func whereTheFileGoes() {
        #expect(ImportOutcome.allCases.filter(\.retires) == [.imported, .unchanged])
        #expect(ImportOutcome.allCases.filter(\.quarantines) == [.partial, .failed])
        #expect(!ImportOutcome.interrupted.retires && !ImportOutcome.interrupted.quarantines)
    }
}
