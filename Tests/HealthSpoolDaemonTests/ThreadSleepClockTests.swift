import Testing
@testable import HealthSpoolDaemon

/// The journal scheduler's clock: it sleeps as long as asked, and a cancelled task's sleep ends
/// within a slice (the daemon stops in bounded time).
@Suite struct ThreadSleepClockTests {
    @Test func sleepsAtLeastTheDurationAsked() async throws {
        let clock = ThreadSleepClock()
        let start = ContinuousClock.now
        try await clock.sleep(for: .milliseconds(300))
        let took = start.duration(to: .now)
        // At least as long as asked; the upper bound only checks that it returns (a loaded
        // machine may be slow to wake it: no timing is asserted beyond that).
        #expect(took >= .milliseconds(300) && took < .seconds(30))
    }

    @Test func cancellingEndsALongSleepEarly() async {
        let clock = ThreadSleepClock()
        let start = ContinuousClock.now
        let sleeper = Task { try await clock.sleep(for: .seconds(120)) }
        try? await Task.sleep(for: .milliseconds(100))
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        // Ended by the cancellation, long before the 120 s asked (no tighter timing is
        // asserted: a loaded machine may be slow to resume the test itself).
        #expect(start.duration(to: .now) < .seconds(60))
    }
}
