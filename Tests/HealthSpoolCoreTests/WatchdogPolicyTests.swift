import Testing
@testable import HealthSpoolCore

@Suite struct WatchdogPolicyTests {
    let policy = WatchdogPolicy(intervalMicros: 30_000_000)

    @Test func theThreadWakesFourTimesPerWatchdogInterval() {
        #expect(policy.pingIntervalMicros == 7_500_000)
        // The longest gap between pings while the coordinator lives is one wake-up interval:
        // under half of WatchdogSec.
        #expect(policy.pingIntervalMicros < policy.intervalMicros / 2)
    }

    @Test func aCoordinatorBlockedInSQLiteForItsWholeBusyTimeoutStillGetsKeepAlives() {
        let beat: UInt64 = 1_000_000_000
        for blocked: UInt64 in [0, 5_000_000, 7_500_000, 15_000_000, 29_999_999] {
            #expect(policy.shouldPing(nowMicros: beat + blocked, lastBeatMicros: beat))
        }
    }

    @Test func aCoordinatorSilentForAWholeWatchdogIntervalIsTakenAsHung() {
        let beat: UInt64 = 1_000_000_000
        #expect(!policy.shouldPing(nowMicros: beat + 30_000_000, lastBeatMicros: beat))
        #expect(!policy.shouldPing(nowMicros: beat + 300_000_000, lastBeatMicros: beat))
    }

    @Test func aBeatRecordedAfterTheThreadReadTheClockCountsAsFresh() {
        #expect(policy.shouldPing(nowMicros: 10, lastBeatMicros: 20))
    }

    @Test func workUnderWayThatStopsMovingStopsThePingsAfterTheStallLimit() {
        let start: UInt64 = 1_000_000_000
        #expect(policy.stallLimitMicros == 120_000_000)
        // Idle (nothing under way): pings while the coordinator beats.
        #expect(policy.decide(nowMicros: start + 500_000_000, lastBeatMicros: start + 499_000_000, lastProgressMicros: nil) == .ping)
        // Moving on: pings.
        #expect(policy.shouldPing(nowMicros: start + 119_000_000, lastBeatMicros: start + 118_000_000, lastProgressMicros: start))
        // Stuck on one step past the limit: no ping, whatever the coordinator says.
        #expect(policy.decide(nowMicros: start + 121_000_000, lastBeatMicros: start + 120_000_000, lastProgressMicros: start)
                == .workStalled(micros: 121_000_000))
        // A silent coordinator is reported first.
        #expect(policy.decide(nowMicros: start + 200_000_000, lastBeatMicros: start, lastProgressMicros: start)
                == .coordinatorSilent(micros: 200_000_000))
        // A long WatchdogSec lengthens the stall limit to 4 intervals.
        #expect(WatchdogPolicy(intervalMicros: 60_000_000).stallLimitMicros == 240_000_000)
    }
}
