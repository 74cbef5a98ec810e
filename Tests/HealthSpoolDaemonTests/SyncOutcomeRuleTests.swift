@testable import HealthSpoolDaemon
import HealthSpoolCore
import HealthSpoolGateway
import Testing

/// The daemon's control socket, its history rows and `sync` in-process all answer with
/// `[SyncJobResult].outcome`: one rule, `SyncOutcome.combining`.
@Suite struct SyncOutcomeRuleTests {
    func job(_ type: String, sent: Int, requests: Int, error: GatewayError? = nil) -> SyncJobResult {
        var r = SyncJobResult(type: type, trigger: .manual, started: Timestamp(millis: 1_000), durationMillis: 5)
        r.sent = sent
        r.requests = requests
        r.error = error
        return r
    }

    @Test func aTypeWithNothingToSendBesideAFailingOneIsPartialInProcessAndThroughTheDaemon() {
        let results = [job("heart_rate", sent: 0, requests: 0), job("steps", sent: 0, requests: 1, error: .badResponse("HTTP 503"))]
        #expect(results.outcome == .partial)
        #expect(results.outcome.exitStatus == 0)
    }

    @Test func historyFoldsOnlyJobsThatDidSomethingWithTheSameRule() throws {
        var attempt = AttemptRecord()
        for r in [job("heart_rate", sent: 0, requests: 0), job("steps", sent: 0, requests: 1, error: .badResponse("HTTP 503"))] {
            attempt.add(r)
        }
        let row = try #require(attempt.row)
        #expect(row.outcome == attempt.results.outcome.rawValue)
        #expect(row.outcome == "failed", "the type with nothing to send made no request: history has only the failure")
    }

    @Test func deliveredThenFailedIsPartial() {
        #expect([job("steps", sent: 10, requests: 2, error: .badResponse("HTTP 503"))].outcome == .partial)
    }
}
