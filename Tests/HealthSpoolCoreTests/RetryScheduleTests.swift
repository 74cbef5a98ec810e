import Testing
@testable import HealthSpoolCore

@Suite struct RetryScheduleTests {
    @Test func withoutJitterTheDelaysDouble() {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 300_000, jitter: 0.2)
        #expect((1...5).map { s.delayMillis(attempt: $0, unitRandom: 0.5) } == [1000, 2000, 4000, 8000, 16000])
    }

    @Test func delaysAreCapped() {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 30_000, jitter: 0)
        #expect(s.delayMillis(attempt: 40, unitRandom: 0.3) == 30_000)
    }

    @Test(arguments: [0.0, 0.999])
    func jitterStaysWithinItsFraction(random: Double) {
        let d = RetrySchedule(baseMillis: 1000, capMillis: 300_000, jitter: 0.2).delayMillis(attempt: 4, unitRandom: random)
        #expect(d >= 6400 && d <= 9600)
    }

    @Test func withProportionalJitterALongerRetryAfterWins() {
        let s = RetrySchedule(jitter: 0.2)
        #expect(s.delayMillis(attempt: 1, unitRandom: 0.5, retryAfterMillis: 7000) == 7000)
        #expect(s.delayMillis(attempt: 5, unitRandom: 0.5, retryAfterMillis: 1000) == 16000)
    }
}

/// Issue 32: a fleet that failed together (one outage, one 429 to everyone) must not come back
/// together. Full jitter is the default: a delay anywhere in [0, the step].
@Suite struct RetryScheduleFullJitterTests {
    @Test func fullJitterIsTheDefault() {
        #expect(RetrySchedule().jitter == .full)
    }

    @Test(arguments: [1, 2, 5, 9, 20])
    func aDelayCoversTheWholeStepFromZero(attempt: Int) {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 300_000)
        let step = min(300_000, Int64(1000) << Int64(attempt - 1))
        #expect(s.delayMillis(attempt: attempt, unitRandom: 0) == 0)
        #expect(s.delayMillis(attempt: attempt, unitRandom: 0.5) == step / 2)
        let top = s.delayMillis(attempt: attempt, unitRandom: 0.9999)
        #expect(top < step && top >= step * 99 / 100)
    }

    @Test func aThousandClientsSpreadEvenlyOverTheStep() {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 300_000)
        // Attempt 6: a 32 s step; the clients' draws fall into each 4-second slice alike.
        let delays = (0..<1000).map { s.delayMillis(attempt: 6, unitRandom: Double($0) / 1000) }
        let slices = Dictionary(grouping: delays) { $0 / 4000 }.mapValues(\.count)
        #expect(slices.count == 8 && slices.values.allSatisfy { $0 == 125 })
    }

    @Test(arguments: [0.0, 0.3, 0.9999])
    func aRetryAfterIsNeverCutShortAndTheReturnIsSpreadAfterIt(random: Double) {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 300_000)
        let d = s.delayMillis(attempt: 1, unitRandom: random, retryAfterMillis: 10_000)
        // Never before the Retry-After; spread over the half of it that follows.
        #expect(d >= 10_000 && d < 15_000)
        #expect(d == 10_000 + Int64(5_000 * random))
    }

    @Test func aRetryAfterShorterThanTheStepSpreadsOverTheStep() {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 300_000)
        #expect(s.delayMillis(attempt: 6, unitRandom: 0.5, retryAfterMillis: 2_000) == 2_000 + 16_000)
    }

    @Test(arguments: [0.0, 0.5, 0.9999])
    func fullJitterNeverPassesTheCap(random: Double) {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 300_000)
        for attempt in 1...40 { #expect(s.delayMillis(attempt: attempt, unitRandom: random) < 300_000) }
    }
}

@Suite struct RetryScheduleCapTests {
    /// Issue 14: a delay of 314 s was seen with a documented cap of 300 s (jitter on top).
    @Test(arguments: [0.0, 0.5, 0.75, 0.999])
    func jitterNeverTakesADelayPastTheCap(random: Double) {
        let s = RetrySchedule(baseMillis: 1000, capMillis: 300_000, jitter: 0.2)
        for attempt in 1...40 { #expect(s.delayMillis(attempt: attempt, unitRandom: random) <= 300_000) }
    }
}
