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
}
