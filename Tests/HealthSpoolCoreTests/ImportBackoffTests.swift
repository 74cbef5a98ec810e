import Testing
@testable import HealthSpoolCore

/// The retry policy for spool files that met a temporary failure: time is an input.
@Suite struct ImportBackoffTests {
    @Test func delaysStartAtTenSecondsDoubleAndStopAtTenMinutes() {
        var b = ImportBackoff()
        var delays: [Int64] = []
        var now: Int64 = 1_000_000
        for _ in 0..<9 {
            let at = b.failed("a.json", cause: "disk full", now: now)
            delays.append((at - now) / 1000)
            now = at
        }
        #expect(delays == [10, 20, 40, 80, 160, 320, 600, 600, 600])
    }

    @Test func aWaitingFileIsSkippedUntilItsTimeAndForgottenOnSuccess() {
        var b = ImportBackoff()
        let at = b.failed("a.json", cause: "permission denied", now: 0)
        #expect(b.isWaiting("a.json", now: at - 1))
        #expect(!b.isWaiting("b.json", now: 0))
        #expect(b.due(now: at - 1).isEmpty && b.due(now: at) == ["a.json"])
        #expect(b.nextDeadline == at && b.soonest?.cause == "permission denied")
        b.forget("a.json")
        #expect(!b.isWaiting("a.json", now: 0) && b.nextDeadline == nil)
        // After forgetting, the next failure starts again at the base delay.
        #expect(b.failed("a.json", cause: "disk full", now: 0) == 10_000)
    }
}
