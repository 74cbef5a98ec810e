import Testing
@testable import HealthSpoolCore

/// The observer policies as state machines driven by a manual clock: no sleeps.
@Suite struct SyncSchedulerTests {
    static let minute: Int64 = 60_000
    let t0: Int64 = 1_767_261_600_000 + 5 * 60_000  // 10:05, not on an hour boundary

    func scheduler(_ frequency: SyncFrequency = .realtime) -> SyncScheduler {
        SyncScheduler(frequency: frequency, throttleMillis: Self.minute) { DataType.lookup($0)?.defaultFrequency ?? .immediate }
    }

    /// A tiny model of the store and worker: each sync of a type delivers all its queued samples.
    struct Model {
        var queued: [String: Int] = [:]
        var delivered: [String: Int] = [:]
        var syncs: [(String, SyncTrigger)] = []
        mutating func apply(_ actions: [SchedulerAction]) {
            for case let .sync(types, trigger) in actions {
                for t in types {
                    syncs.append((t, trigger))
                    delivered[t, default: 0] += queued[t] ?? 0
                    queued[t] = 0
                }
            }
        }
    }

    @Test func tenFilesOfOneTypeInAMinuteGiveOneLeadingAndOneTrailingSyncAndDeliverEverySample() {
        var s = scheduler()
        var m = Model()
        for i in 0..<10 {
            let now = t0 + Int64(i) * 5_000
            m.queued["heartRate", default: 0] += 7
            m.apply(s.observe(["heartRate"], now: now))
            m.apply(s.tick(now: now))
        }
        #expect(s.nextDeadline == t0 + Self.minute)
        m.apply(s.tick(now: t0 + Self.minute - 1))
        #expect(m.syncs.count == 1)
        m.apply(s.tick(now: t0 + Self.minute))
        #expect(m.syncs.map(\.1) == [.observer, .throttle])
        #expect(m.delivered["heartRate"] == 70)
        #expect(s.nextDeadline == nil)
    }

    @Test func twoTypesDoNotThrottleEachOther() {
        var s = scheduler()
        #expect(s.observe(["heartRate"], now: t0) == [.sync(["heartRate"], .observer)])
        #expect(s.observe(["restingHeartRate"], now: t0 + 1000) == [.sync(["restingHeartRate"], .observer)])
        #expect(s.observe(["heartRate"], now: t0 + 2000) == [])
    }

    @Test func aTriggerAfterTheWindowSyncsAtOnceAgain() {
        var s = scheduler()
        _ = s.observe(["heartRate"], now: t0)
        #expect(s.observe(["heartRate"], now: t0 + Self.minute) == [.sync(["heartRate"], .observer)])
    }

    @Test func hourlyTypesWaitForTheHour() {
        var s = scheduler()
        #expect(s.observe(["stepCount"], now: t0) == [])
        let hour = (t0 / 3_600_000 + 1) * 3_600_000
        #expect(s.nextDeadline == hour)
        #expect(s.tick(now: hour - 1) == [])
        #expect(s.tick(now: hour) == [.sync(["stepCount"], .schedule)])
    }

    @Test func globalHourlyAndDailyFrequenciesHoldEveryTypeUntilTheirBoundary() {
        var hourly = scheduler(.hourly)
        #expect(hourly.observe(["heartRate"], now: t0) == [])
        #expect(hourly.tick(now: (t0 / 3_600_000 + 1) * 3_600_000) == [.sync(["heartRate"], .schedule)])
        var daily = scheduler(.daily)
        #expect(daily.observe(["heartRate"], now: t0) == [])
        #expect(daily.nextDeadline == (t0 / 86_400_000 + 1) * 86_400_000)
    }

    @Test func manualFrequencySendsOnlyWhenAsked() {
        var s = scheduler(.manual)
        #expect(s.observe(["heartRate"], now: t0) == [])
        #expect(s.tick(now: t0 + 86_400_000) == [])
        #expect(s.manual(["heartRate"]) == [.sync(["heartRate"], .manual)])
    }

    @Test func manualSyncBypassesTheThrottle() {
        var s = scheduler()
        _ = s.observe(["heartRate"], now: t0)
        #expect(s.observe(["heartRate"], now: t0 + 1000) == [])
        #expect(s.manual(["heartRate"]) == [.sync(["heartRate"], .manual)])
    }

    @Test func lockHoldsEverythingAndUnlockDrainsItStillThrottled() {
        var s = scheduler()
        var m = Model()
        _ = s.setLocked(true, queuedTypes: [], now: t0)
        m.queued = ["heartRate": 3, "restingHeartRate": 2]
        m.apply(s.observe(["heartRate", "restingHeartRate"], now: t0))
        m.apply(s.tick(now: t0 + 10 * Self.minute))
        #expect(m.syncs.isEmpty)
        #expect(s.nextDeadline == nil)
        m.apply(s.setLocked(false, queuedTypes: ["heartRate"], now: t0 + 11 * Self.minute))
        #expect(m.syncs.map(\.0).sorted() == ["heartRate", "restingHeartRate"])
        #expect(m.syncs.allSatisfy { $0.1 == .unlock })
        #expect(m.delivered == ["heartRate": 3, "restingHeartRate": 2])
        // Still throttled after the unlock: a change right after waits for the window.
        #expect(s.observe(["heartRate"], now: t0 + 11 * Self.minute + 1) == [])
    }

    @Test func aFailedTypeIsRetriedAtItsDeadlineAndSuccessCancelsTheRetry() {
        var s = scheduler()
        s.scheduleRetry("heartRate", at: t0 + 4000)
        #expect(s.nextDeadline == t0 + 4000)
        #expect(s.tick(now: t0 + 3999) == [])
        #expect(s.tick(now: t0 + 4000) == [.sync(["heartRate"], .retry)])
        s.scheduleRetry("heartRate", at: t0 + 9000)
        s.succeeded("heartRate")
        #expect(s.nextDeadline == nil)
    }
}

@Suite struct SyncSchedulerNowTests {
    /// Issue 14: after `gateway set` queued types waited for their throttle window.
    @Test func aConfigurationChangeSyncsAtOnceInsideTheThrottleWindow() {
        var s = SyncScheduler(frequency: .realtime, throttleMillis: 60_000, deliveryFrequency: { _ in .immediate })
        #expect(s.observe(["heartRate"], now: 0) == [.sync(["heartRate"], .observer)])
        #expect(s.observe(["heartRate"], now: 1_000) == [])
        s.scheduleRetry("heartRate", at: 30_000)
        #expect(s.syncNow(["heartRate"], trigger: .reload) == [.sync(["heartRate"], .reload)])
        #expect(s.retryAt.isEmpty)
    }
}
