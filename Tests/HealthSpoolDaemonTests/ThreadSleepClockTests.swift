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
        #expect(took >= .milliseconds(300) && took < .seconds(2))
    }

    @Test func cancellingEndsALongSleepAtOnce() async {
        let clock = ThreadSleepClock()
        let start = ContinuousClock.now
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(100))
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(start.duration(to: .now) < .seconds(2))
    }
}
