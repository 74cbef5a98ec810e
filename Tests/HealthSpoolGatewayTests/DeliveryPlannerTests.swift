import HealthSpoolCore
@testable import HealthSpoolGateway
import Testing

/// The batch-splitting plan, driven without a network: the tests play the gateway's answers.
@Suite struct DeliveryPlannerTests {
    /// Plays a gateway that rejects any request holding one of `bad` and accepts the rest.
    func deliver(count: Int, bad: Set<Int>) -> (DeliveryOutcome, [Range<Int>]) {
        var plan = DeliveryPlanner(count: count)
        var sent: [Range<Int>] = []
        while let part = plan.next() {
            sent.append(part)
            if part.contains(where: bad.contains) {
                plan.record(.rejected(.http(status: 422, message: "bad record", retryAfterMillis: nil)), for: part, status: 422)
            } else {
                plan.record(.perRecord(Array(repeating: .accepted, count: part.count)), for: part, status: 200)
            }
        }
        return (plan.outcome, sent)
    }

    @Test func aCleanBatchIsOneRequest() {
        let (outcome, sent) = deliver(count: 100, bad: [])
        #expect(sent == [0..<100] && outcome.accepted == 100 && outcome.requests == 1)
    }

    @Test func aRejectedBatchIsHalvedLeftFirstUntilTheBadSampleStandsAlone() {
        let (outcome, sent) = deliver(count: 8, bad: [5])
        #expect(sent == [0..<8, 0..<4, 4..<8, 4..<6, 4..<5, 5..<6, 6..<8])
        #expect(outcome.accepted == 7 && outcome.rejected.map(\.index) == [5] && outcome.retry.isEmpty)
        #expect(outcome.requests == sent.count)
    }

    @Test func aRetryableFailureLeavesEveryUnsentPartForLater() {
        var plan = DeliveryPlanner(count: 8)
        var part = plan.next()!
        plan.record(.rejected(.http(status: 422, message: "bad", retryAfterMillis: nil)), for: part, status: 422)
        part = plan.next()!
        #expect(part == 0..<4)
        plan.record(.retry(.http(status: 503, message: "busy", retryAfterMillis: 2000)), for: part, status: 503, retryAfterMillis: 2000)
        #expect(plan.next() == nil, "the right half is not sent while the gateway is busy")
        #expect(Set(plan.outcome.retry) == Set(0..<8) && plan.outcome.accepted == 0)
        #expect(plan.outcome.retryAfterMillis == 2000 && plan.outcome.requests == 2 && plan.outcome.lastStatus == 503)
    }

    @Test func refusedCredentialsInOneRecordStopTheDelivery() {
        var plan = DeliveryPlanner(count: 3)
        let part = plan.next()!
        plan.record(.perRecord([.accepted, .unauthorized("no"), .accepted]), for: part, status: 207)
        #expect(plan.next() == nil)
        #expect(plan.outcome.stopped && plan.outcome.accepted == 2 && plan.outcome.retry == [1])
        if case .unauthorized = plan.outcome.error {} else { Issue.record("expected an unauthorized error, got \(String(describing: plan.outcome.error))") }
    }

    @Test func anEmptyBatchSendsNothing() {
        var plan = DeliveryPlanner(count: 0)
        #expect(plan.next() == nil && plan.outcome.requests == 0)
    }

    @Test func partsKeepUnderTheBodyLimitAndAnOversizedRecordGoesAlone() {
        var plan = DeliveryPlanner(recordBytes: [400, 400, 400, 5_000, 100], maxBodyBytes: 1_500)
        var sent: [Range<Int>] = []
        while let part = plan.next() {
            sent.append(part)
            plan.record(.perRecord(Array(repeating: .accepted, count: part.count)), for: part, status: 200)
        }
        #expect(sent == [0..<2, 2..<3, 3..<4, 4..<5])
        #expect(plan.outcome.accepted == 5)
    }
}
