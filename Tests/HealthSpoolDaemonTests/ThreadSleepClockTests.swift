import Testing
@testable import HealthSpoolDaemon

/// The journal scheduler's production clock: it sleeps at least as long as asked, and a
/// cancelled task's sleep ends without waiting out its duration. No upper bound on wall time is
/// asserted (a loaded machine is slow to wake anything; one such bound failed under load): the
/// suite's time limit bounds both. The scheduler's own waking and stopping are tested on a
/// manual clock (`JournalSchedulerClockTests`).
@Suite(.timeLimit(.minutes(1))) struct ThreadSleepClockTests {
    @Test func sleepsAtLeastTheDurationAsked() async throws {
        let clock = ThreadSleepClock()
        let start = ContinuousClock.now
        try await clock.sleep(for: .milliseconds(300))
        let took = start.duration(to: .now)
        #expect(took >= .milliseconds(300))
    }

    @Test func cancellingEndsALongSleepEarly() async {
        let clock = ThreadSleepClock()
        // Far longer than the suite's time limit: the test passes only if cancelling ends it.
        let sleeper = Task { try await clock.sleep(for: .seconds(3600)) }
        try? await Task.sleep(for: .milliseconds(100))
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
