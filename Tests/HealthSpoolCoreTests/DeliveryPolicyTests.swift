import Testing
@testable import HealthSpoolCore

@Suite struct DeliveryPolicyTests {
    let reset = JobReport.Failure.transient(message: "connection reset", retryAfterMillis: nil)

    /// Issue 14: one reset in seven requests made every job fail after delivering thousands of
    /// samples, and the delay still grew to minutes. A job that delivered is retried at once.
    @Test func aJobThatDeliveredBatchesBeforeFailingIsRetriedAtOnceEveryTime() {
        var p = DeliveryPolicy()
        var now: Int64 = 1_000_000
        for _ in 0..<50 {
            let d = p.finished(JobReport(type: "heartRate", accepted: 600, answered: true, failure: reset), now: now, unitRandom: 0.99)
            #expect(d.retryAt == now)
            #expect(d.event == .none)
            now += 2_000
        }
        #expect(p.failures["heartRate"] == nil && p.incident == nil)
    }

    @Test func aBatchAcceptedResetsTheBackoffOfAHiccupingType() {
        var p = DeliveryPolicy(schedule: RetrySchedule(jitter: 0))
        _ = p.finished(JobReport(type: "steps", accepted: 100, answered: true), now: 0, unitRandom: 0.5)
        // Failures without progress just after another batch was accepted: per-type backoff.
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: false, failure: reset), now: 100, unitRandom: 0.5).retryAt == 1_100)
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: false, failure: reset), now: 1_100, unitRandom: 0.5).retryAt == 3_100)
        _ = p.finished(JobReport(type: "hr", accepted: 100, answered: true), now: 3_200, unitRandom: 0.5)
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: false, failure: reset), now: 3_300, unitRandom: 0.5).retryAt == 4_300)
    }

    @Test func anUnreachableGatewayIsOneIncidentWithOneRetryRoundForEveryType() {
        var p = DeliveryPolicy(schedule: RetrySchedule(jitter: 0))
        let down = JobReport.Failure.transient(message: "refused", retryAfterMillis: nil)
        let first = p.finished(JobReport(type: "a", accepted: 0, answered: false, failure: down), now: 0, unitRandom: 0.5)
        guard case let .incidentStarted(incident) = first.event else { Issue.record("no incident: \(first)"); return }
        #expect(incident.retryAt == 1_000 && first.retryAt == 1_000)
        // Other types failing in the same attempt share the round and say nothing.
        for t in ["b", "c", "d"] {
            #expect(p.finished(JobReport(type: t, accepted: 0, answered: false, failure: down), now: 50, unitRandom: 0.1)
                    == DeliveryDecision(retryAt: 1_000, event: .none))
        }
        // The next round: 2 s, still one incident.
        #expect(p.finished(JobReport(type: "a", accepted: 0, answered: false, failure: down), now: 1_000, unitRandom: 0.5)
                == DeliveryDecision(retryAt: 3_000, event: .none))
        #expect(p.finished(JobReport(type: "b", accepted: 0, answered: false, failure: down), now: 1_010, unitRandom: 0.5).retryAt == 3_000)
        let back = p.finished(JobReport(type: "a", accepted: 5, answered: true), now: 3_000, unitRandom: 0.5)
        guard case let .incidentEnded(ended, after) = back.event else { Issue.record("not ended: \(back)"); return }
        #expect(ended.attempts == 2 && after == 3_000 && p.incident == nil)
    }

    @Test func refusedCredentialsRetryOnTheSlowScheduleThenEveryFifteenMinutes() {
        var p = DeliveryPolicy()
        let refused = JobReport.Failure.unauthorized(message: "401")
        var now: Int64 = 0
        var delays: [Int64] = []
        for _ in 0..<5 {
            let d = p.finished(JobReport(type: "hr", accepted: 0, answered: true, failure: refused), now: now, unitRandom: 0.5)
            delays.append(d.retryAt! - now)
            now = d.retryAt!
        }
        #expect(delays == [60_000, 300_000, 900_000, 900_000, 900_000])
        #expect(p.incident?.kind == .unauthorized)
    }

    @Test func theAuthScheduleCanBeShortened() {
        var p = DeliveryPolicy(authDelaysMillis: [1_000, 2_000])
        let refused = JobReport.Failure.unauthorized(message: "401")
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: true, failure: refused), now: 0, unitRandom: 0).retryAt == 1_000)
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: true, failure: refused), now: 1_000, unitRandom: 0).retryAt == 3_000)
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: true, failure: refused), now: 3_000, unitRandom: 0).retryAt == 5_000)
    }

    @Test func aRetryAfterDuringAnIncidentIsHonoured() {
        var p = DeliveryPolicy(schedule: RetrySchedule(jitter: 0))
        let busy = JobReport.Failure.transient(message: "503", retryAfterMillis: 40_000)
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: true, failure: busy), now: 0, unitRandom: 0.5).retryAt == 40_000)
    }

    /// Issue 32: a 429 or 503 heard by one type holds the whole daemon, even a moment after
    /// another type got through (where a reset is one type's hiccup).
    @Test(arguments: [Int64(10_000), nil])
    func aThrottlingAnswerHoldsEveryTypeNotOnlyTheOneThatHeardIt(retryAfter: Int64?) {
        var p = DeliveryPolicy(schedule: RetrySchedule(jitter: 0))
        _ = p.finished(JobReport(type: "steps", accepted: 100, answered: true), now: 0, unitRandom: 0.5)
        let busy = JobReport.Failure.transient(message: "HTTP 429", retryAfterMillis: retryAfter)
        let d = p.finished(JobReport(type: "hr", accepted: 0, answered: true, throttled: true, failure: busy), now: 100, unitRandom: 0.5)
        guard case let .incidentStarted(incident) = d.event else { Issue.record("no incident: \(d)"); return }
        #expect(incident.kind == .throttled && p.incident?.retryAt == d.retryAt)
        #expect(d.retryAt == 100 + (retryAfter ?? 1_000))
        // The other type, failing the same way in the same round, joins it (no second incident)
        // and waits as long (its own Retry-After counted from when it heard it).
        let other = p.finished(JobReport(type: "steps", accepted: 0, answered: true, throttled: true, failure: busy), now: 150, unitRandom: 0.9)
        #expect(other == DeliveryDecision(retryAt: retryAfter.map { 150 + $0 } ?? d.retryAt, event: .none))
        #expect(p.incident?.attempts == 1)
        // The next answer that gets through ends it.
        let back = p.finished(JobReport(type: "hr", accepted: 10, answered: true), now: 20_000, unitRandom: 0.5)
        guard case .incidentEnded = back.event else { Issue.record("not ended: \(back)"); return }
        #expect(p.incident == nil)
    }

    @Test func aThrottlingAnswerAfterDeliveredBatchesStillHoldsTheDaemon() {
        var p = DeliveryPolicy(schedule: RetrySchedule(jitter: 0))
        let busy = JobReport.Failure.transient(message: "HTTP 503", retryAfterMillis: 30_000)
        let d = p.finished(JobReport(type: "hr", accepted: 400, answered: true, throttled: true, failure: busy), now: 0, unitRandom: 0.5)
        #expect(d.retryAt == 30_000 && p.incident?.kind == .throttled)
    }

    @Test func aResetJustAfterADeliveryStaysOneTypesHiccup() {
        var p = DeliveryPolicy(schedule: RetrySchedule(jitter: 0))
        _ = p.finished(JobReport(type: "steps", accepted: 100, answered: true), now: 0, unitRandom: 0.5)
        #expect(p.finished(JobReport(type: "hr", accepted: 0, answered: false, failure: reset), now: 100, unitRandom: 0.5).retryAt == 1_100)
        #expect(p.incident == nil)
    }

    @Test func aConfigurationProblemStopsWithoutATimedRetryAndResetForgetsTheIncident() {
        var p = DeliveryPolicy()
        let d = p.finished(JobReport(type: "hr", accepted: 0, answered: false, failure: .configuration(message: "pin")), now: 0, unitRandom: 0)
        #expect(d == DeliveryDecision(retryAt: nil, event: .stopped("pin")))
        _ = p.finished(JobReport(type: "hr", accepted: 0, answered: true, failure: .unauthorized(message: "401")), now: 0, unitRandom: 0)
        p.reset()
        #expect(p.incident == nil && p.failures.isEmpty)
    }
}
