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

    @Test func aLongerRetryAfterWins() {
        let s = RetrySchedule()
        #expect(s.delayMillis(attempt: 1, unitRandom: 0.5, retryAfterMillis: 7000) == 7000)
        #expect(s.delayMillis(attempt: 5, unitRandom: 0.5, retryAfterMillis: 1000) == 16000)
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
