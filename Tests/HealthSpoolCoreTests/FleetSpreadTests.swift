import Testing
@testable import HealthSpoolCore

/// Issue 32: what a fleet of daemons would do in the same second (start after a power cut, the
/// top of the hour, local midnight) spreads over a window. Driven with a manual clock.
@Suite struct FleetSpreadTests {
    static let minute: Int64 = 60_000
    let t0: Int64 = 1_767_261_600_000 + 5 * 60_000  // 10:05

    @Test func aDaemonsShareIsStableAndDaemonsDiffer() {
        #expect(FleetSpread(key: "laptop-1/alice") == FleetSpread(key: "laptop-1/alice"))
        #expect(FleetSpread(key: "laptop-1/alice") != FleetSpread(key: "laptop-1/bob"))
        #expect(FleetSpread(key: "x").offsetMillis(window: 0) == 0)
    }

    @Test func aThousandDevicesFillEveryTenthOfTheWindow() {
        let offsets = (0..<1000).map { FleetSpread(key: "device-\($0)/user\($0)").offsetMillis(window: 60_000) }
        #expect(offsets.allSatisfy { $0 >= 0 && $0 < 60_000 })
        let tenths = Dictionary(grouping: offsets) { $0 / 6_000 }.mapValues(\.count)
        // Even enough: every 6-second slice holds 100 ± 40 of them.
        #expect(tenths.count == 10 && tenths.values.allSatisfy { (60...140).contains($0) }, "\(tenths)")
    }

    func scheduler() -> SyncScheduler {
        SyncScheduler(frequency: .realtime, throttleMillis: Self.minute) { DataType.lookup($0)?.defaultFrequency ?? .immediate }
    }

    @Test func duringTheStartUpHoldNothingSyncsThenEverythingThatCameUpSyncsOnce() {
        var s = scheduler()
        s.hold(until: t0 + 20_000)
        #expect(s.nextDeadline == t0 + 20_000)
        #expect(s.observe(["heartRate", "stepCount"], trigger: .startup, now: t0).isEmpty)
        #expect(s.observe(["heartRate", "bodyMass"], trigger: .observer, now: t0 + 5_000).isEmpty)
        #expect(s.tick(now: t0 + 19_999).isEmpty)
        // At the hold's end: one start-up sync of what was queued at start (hourly types too, as
        // at an ordinary start); what was imported meanwhile as an import: hourly waits the hour.
        #expect(s.tick(now: t0 + 20_000) == [.sync(["heartRate", "stepCount"], .startup)])
        #expect(s.heldUntil == nil && s.held.isEmpty && s.waitingForSchedule == ["bodyMass"])
        // Afterwards the throttle works as ever.
        #expect(s.observe(["heartRate"], now: t0 + 21_000).isEmpty)
    }

    @Test func aManualSyncIsNotHeld() {
        var s = scheduler()
        s.hold(until: t0 + 20_000)
        _ = s.observe(["heartRate"], trigger: .startup, now: t0)
        #expect(s.syncNow(["heartRate"], trigger: .manual) == [.sync(["heartRate"], .manual)])
        #expect(s.tick(now: t0 + 20_000).isEmpty)
    }

    @Test func hourlyTypesGoOutAtThisDaemonsPlaceAfterTheHour() {
        var s = scheduler()
        s.boundaryOffsetMillis = 42_000
        #expect(s.observe(["stepCount"], now: t0).isEmpty)
        #expect(s.nextDeadline == t0 + 55 * Self.minute + 42_000)   // 11:00:42
        #expect(s.tick(now: t0 + 55 * Self.minute).isEmpty)
        #expect(s.tick(now: t0 + 55 * Self.minute + 42_000) == [.sync(["stepCount"], .schedule)])
        // Observed between the hour and its place: still that hour's place, not the next.
        #expect(s.observe(["stepCount"], now: t0 + 115 * Self.minute + 10_000).isEmpty)
        #expect(s.nextDeadline == t0 + 115 * Self.minute + 42_000)
    }

    @Test func theScoresOfADayWaitForTheDrawnDelayAfterMidnight() {
        let berlin = ZoneRules.fixed(name: "Europe/Berlin", offset: 3600)
        let midnight = at("2026-06-11 00:00", berlin).millis
        let before = JournalPlan.plan(now: midnight - 1_000, zone: berlin, reminders: [], lastFired: [:],
                                      scoredThrough: CivilDate(parsing: "2026-06-09"), scoreDelayMillis: 37_000)
        #expect(before.scoreDays.isEmpty && before.wake == midnight + 37_000)
        let early = JournalPlan.plan(now: midnight + 36_999, zone: berlin, reminders: [], lastFired: [:],
                                     scoredThrough: CivilDate(parsing: "2026-06-09"), scoreDelayMillis: 37_000)
        #expect(early.scoreDays.isEmpty && early.wake == midnight + 37_000)
        let due = JournalPlan.plan(now: midnight + 37_000, zone: berlin, reminders: [], lastFired: [:],
                                   scoredThrough: CivilDate(parsing: "2026-06-09"), scoreDelayMillis: 37_000)
        #expect(due.scoreDays == [CivilDate(parsing: "2026-06-10")!])
    }
}
