import Testing
@testable import HealthSpoolCore

/// The journal scheduler's planning with a manual clock (`at`): next wake, reminders to fire
/// and days to score, across DST both ways, a change of zone and a long suspend.
@Suite struct JournalPlanTests {
    let tokyo = ZoneRules.fixed(name: "Asia/Tokyo", offset: 32400)

    func day(_ text: String) -> CivilDate { CivilDate(parsing: text)! }

    @Test func beforeMidnightItWakesForTheReminderThenAtMidnight() {
        let r = reminder(["22:30"], RecurrenceRule(.daily))
        let evening = JournalPlan.plan(now: at("2026-06-10 22:00", berlin).millis, zone: berlin, reminders: [r],
                                       lastFired: [1: at("2026-06-09 22:30", berlin)], scoredThrough: day("2026-06-09"))
        #expect(evening.reminders.due.isEmpty && evening.scoreDays.isEmpty)
        #expect(evening.wake == at("2026-06-10 22:30", berlin).millis)
        let fired = at("2026-06-10 22:30", berlin)
        let after = JournalPlan.plan(now: fired.millis, zone: berlin, reminders: [r], lastFired: [1: fired],
                                     scoredThrough: day("2026-06-09"))
        #expect(after.wake == at("2026-06-11 00:00", berlin).millis)
        let midnight = JournalPlan.plan(now: after.wake, zone: berlin, reminders: [r], lastFired: [1: fired],
                                        scoredThrough: day("2026-06-09"))
        #expect(midnight.scoreDays == [day("2026-06-10")])
        #expect(midnight.reminders.due.isEmpty)
        #expect(midnight.wake == at("2026-06-11 22:30", berlin).millis)
    }

    @Test func springForwardDayLasts23HoursUntilTheNextScoring() {
        let start = at("2026-03-29 00:00", berlin).millis
        let plan = JournalPlan.plan(now: start, zone: berlin, reminders: [], lastFired: [:], scoredThrough: day("2026-03-27"))
        #expect(plan.scoreDays == [day("2026-03-28")])
        #expect(plan.wake - start == 23 * 3_600_000)
        #expect(plan.wake == at("2026-03-30 00:00", berlin).millis)
    }

    @Test func fallBackDayLasts25HoursAndAReminderKeepsItsWallClockTime() {
        let r = reminder(["08:00"], RecurrenceRule(.daily))
        let start = at("2026-11-01 00:00", newYork).millis
        let plan = JournalPlan.plan(now: start, zone: newYork, reminders: [r], lastFired: [1: at("2026-10-31 08:00", newYork)],
                                    scoredThrough: day("2026-10-30"))
        #expect(plan.scoreDays == [day("2026-10-31")])
        #expect(plan.wake == at("2026-11-01 08:00", newYork).millis)
        #expect(plan.wake - start == 9 * 3_600_000)  // 00:00 EDT → 08:00 EST
        let midnight = JournalPlan.plan(now: plan.wake, zone: newYork, reminders: [], lastFired: [:], scoredThrough: day("2026-10-31"))
        #expect(midnight.wake - start == 25 * 3_600_000)
    }

    @Test func aChangeOfZoneReplansMidnightAndNeverScoresADayTwice() {
        // Scored 2026-06-10 at Tokyo's midnight; then the zone becomes New York, where it is
        // still 2026-06-10 (11:00 EDT): nothing to score, next wake New York's midnight.
        let now = at("2026-06-11 00:00", tokyo).millis
        let inTokyo = JournalPlan.plan(now: now, zone: tokyo, reminders: [], lastFired: [:], scoredThrough: day("2026-06-09"))
        #expect(inTokyo.scoreDays == [day("2026-06-10")])
        let later = now + 60_000
        let inNewYork = JournalPlan.plan(now: later, zone: newYork, reminders: [], lastFired: [:], scoredThrough: day("2026-06-10"))
        #expect(inNewYork.scoreDays.isEmpty)
        #expect(inNewYork.wake == at("2026-06-11 00:00", newYork).millis)
        // New York's midnight: 2026-06-10 is already scored, nothing again.
        let nyMidnight = JournalPlan.plan(now: inNewYork.wake, zone: newYork, reminders: [], lastFired: [:], scoredThrough: day("2026-06-10"))
        #expect(nyMidnight.scoreDays.isEmpty)
        #expect(nyMidnight.wake == at("2026-06-12 00:00", newYork).millis)
    }

    @Test func aLongSuspendFiresEachReminderOnceAndScoresTheMissedDaysOnce() {
        let r = reminder(["08:00"], RecurrenceRule(.daily))
        let resumed = at("2026-06-20 10:00", berlin)
        let plan = JournalPlan.plan(now: resumed.millis, zone: berlin, reminders: [r], lastFired: [1: at("2026-06-01 08:00", berlin)],
                                    scoredThrough: day("2026-06-01"))
        #expect(plan.reminders.due.count == 1)
        #expect(plan.reminders.due.first?.missed == 18)
        #expect(plan.scoreDays.first == day("2026-06-13"))
        #expect(plan.scoreDays.last == day("2026-06-19"))
        #expect(plan.scoreDays.count == JournalPlan.catchUpDays)
        #expect(plan.wake == at("2026-06-21 00:00", berlin).millis)
        // The wake-up after: nothing fires again and no day is scored twice.
        let again = JournalPlan.plan(now: resumed.millis + 1000, zone: berlin, reminders: [r], lastFired: [1: resumed],
                                     scoredThrough: day("2026-06-19"))
        #expect(again.reminders.due.isEmpty && again.scoreDays.isEmpty)
    }

    @Test func theFirstRunScoresYesterdayOnly() {
        let plan = JournalPlan.plan(now: at("2026-06-10 15:00", berlin).millis, zone: berlin, reminders: [], lastFired: [:],
                                    scoredThrough: nil)
        #expect(plan.scoreDays == [day("2026-06-09")])
    }
}
