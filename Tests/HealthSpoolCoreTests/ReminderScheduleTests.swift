import Testing
@testable import HealthSpoolCore

/// Berlin and New York from their POSIX rules alone (what the TZif footers say), so these tests
/// need no tz database; `ZoneRulesTests` checks the TZif reader against the same rules.
let berlin = ZoneRules(name: "Europe/Berlin", initialOffset: 3600, rule: PosixZoneRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3"))
let newYork = ZoneRules(name: "America/New_York", initialOffset: -18000, rule: PosixZoneRule(parsing: "EST5EDT,M3.2.0,M11.1.0"))

/// A manual clock: instants written as local wall-clock text in a zone.
func at(_ text: String, _ zone: ZoneRules) -> Timestamp {
    WallClock.parse(text, now: Timestamp(millis: 0), zone: zone)!
}

func reminder(_ times: [String], _ rule: RecurrenceRule, start: String = "2026-03-01", id: Int64 = 1,
              created: Timestamp = Timestamp(millis: 0)) -> Reminder {
    Reminder(id: id, name: "Take ibuprofen", kind: .medication, times: times.map { TimeOfDay(parsing: $0)! }, rule: rule,
             start: CivilDate(parsing: start)!, created: created)
}

@Suite struct ReminderScheduleTests {
    @Test func eightOClockStaysEightOClockAcrossSpringForward() {
        let r = reminder(["08:00"], RecurrenceRule(.daily))
        let list = ReminderSchedule.occurrences(of: r, after: at("2026-03-28 00:00", berlin), count: 3, zone: berlin)
        #expect(list.map(\.iso8601Local) == ["2026-03-28T08:00:00.000+01:00", "2026-03-29T08:00:00.000+02:00",
                                             "2026-03-30T08:00:00.000+02:00"])
        // 23 hours between the first two: the instant moves, the wall clock does not.
        #expect(list[1].millis - list[0].millis == 23 * 3_600_000)
    }

    @Test func eightOClockStaysEightOClockAcrossFallBack() {
        let r = reminder(["08:00"], RecurrenceRule(.daily))
        let list = ReminderSchedule.occurrences(of: r, after: at("2026-10-31 00:00", newYork), count: 3, zone: newYork)
        #expect(list.map(\.iso8601Local) == ["2026-10-31T08:00:00.000-04:00", "2026-11-01T08:00:00.000-05:00",
                                             "2026-11-02T08:00:00.000-05:00"])
        #expect(list[1].millis - list[0].millis == 25 * 3_600_000)
    }

    @Test func aSkippedTimeGivesNoOccurrenceAndARepeatedTimeTheFirst() {
        let r = reminder(["02:30"], RecurrenceRule(.daily))
        let spring = ReminderSchedule.occurrences(of: r, after: at("2026-03-28 12:00", berlin), count: 2, zone: berlin)
        #expect(spring.map(\.iso8601Local) == ["2026-03-30T02:30:00.000+02:00", "2026-03-31T02:30:00.000+02:00"])
        let fall = ReminderSchedule.occurrences(of: r, after: at("2026-10-24 12:00", berlin), count: 2, zone: berlin)
        #expect(fall.map(\.iso8601Local) == ["2026-10-25T02:30:00.000+02:00", "2026-10-26T02:30:00.000+01:00"])
    }

    @Test func aZoneChangeKeepsTheWallClockTimeAndFiresNothingTwice() {
        let r = reminder(["08:00", "20:00"], RecurrenceRule(.daily))
        // Fired at 08:00 in Berlin, then flew to New York (6 hours behind). The times follow the
        // wall clock of the zone now in effect: 08:00 New York time came due after the Berlin
        // firing and fires (once), Berlin's 20:00 (14:00 in New York) does not, 20:00 New York does.
        let fired = at("2026-06-10 08:00", berlin)
        let landed = at("2026-06-10 13:00", newYork)
        let check = ReminderSchedule.dueReminders([r], lastFired: [1: fired], now: landed, zone: newYork)
        #expect(check.due.map(\.occurrence.iso8601Local) == ["2026-06-10T08:00:00.000-04:00"])
        #expect(check.due.first?.missed == 0)
        #expect(check.nextCheck?.iso8601Local == "2026-06-10T20:00:00.000-04:00")
        #expect(ReminderSchedule.dueReminders([r], lastFired: [1: landed], now: at("2026-06-10 19:59", newYork), zone: newYork).due.isEmpty)
        let evening = at("2026-06-10 20:00", newYork)
        let later = ReminderSchedule.dueReminders([r], lastFired: [1: landed], now: evening, zone: newYork)
        #expect(later.due.map(\.occurrence.iso8601Local) == ["2026-06-10T20:00:00.000-04:00"])
        #expect(ReminderSchedule.dueReminders([r], lastFired: [1: evening], now: evening.adding(millis: 1000), zone: newYork).due.isEmpty)
    }

    @Test func aLongSuspendFiresOnceNotAStorm() {
        let r = reminder(["08:00", "20:00"], RecurrenceRule(.daily))
        let last = at("2026-05-01 08:00", berlin)
        let now = at("2026-05-08 09:30", berlin)   // a week asleep: 14 occurrences came due
        let check = ReminderSchedule.dueReminders([r], lastFired: [1: last], now: now, zone: berlin)
        #expect(check.due.count == 1)
        #expect(check.due[0].occurrence.iso8601Local == "2026-05-08T08:00:00.000+02:00")
        #expect(check.due[0].missed == 13)
        // The scheduler records `now`; asking again at once fires nothing.
        let again = ReminderSchedule.dueReminders([r], lastFired: [1: now], now: now.adding(millis: 1000), zone: berlin)
        #expect(again.due.isEmpty)
        #expect(again.nextCheck?.iso8601Local == "2026-05-08T20:00:00.000+02:00")
    }

    @Test func aNewReminderFiresNothingFromBeforeItExisted() {
        let created = at("2026-05-01 12:00", berlin)
        let r = reminder(["08:00"], RecurrenceRule(.daily), created: created)
        #expect(ReminderSchedule.dueReminders([r], lastFired: [:], now: created.adding(millis: 60_000), zone: berlin).due.isEmpty)
        let next = ReminderSchedule.dueReminders([r], lastFired: [:], now: at("2026-05-02 08:00", berlin), zone: berlin)
        #expect(next.due.map(\.occurrence.iso8601Local) == ["2026-05-02T08:00:00.000+02:00"])
    }

    @Test func dueIsExactAtTheMinuteAndNotBefore() {
        let r = reminder(["08:00"], RecurrenceRule(.daily))
        let last = at("2026-05-01 08:00", berlin)
        #expect(ReminderSchedule.dueReminders([r], lastFired: [1: last], now: at("2026-05-02 07:59", berlin), zone: berlin).due.isEmpty)
        #expect(ReminderSchedule.dueReminders([r], lastFired: [1: last], now: at("2026-05-02 08:00", berlin), zone: berlin).due.count == 1)
    }

    @Test func everyOtherWeekCountsWeeksFromTheStartWeek() {
        // Start Wednesday 2026-03-04; Mondays and Fridays every other week (weeks start Monday).
        let r = reminder(["09:00"], RecurrenceRule(.weekly, interval: 2, weekdays: [.monday, .friday]), start: "2026-03-04")
        let list = ReminderSchedule.occurrences(of: r, after: at("2026-03-01 00:00", berlin), count: 5, zone: berlin)
        #expect(list.map { String($0.iso8601Local.prefix(10)) } == ["2026-03-06", "2026-03-16", "2026-03-20", "2026-03-30", "2026-04-03"])
    }

    @Test func monthlyOnThe31stSkipsShortMonths() {
        let r = reminder(["08:00"], RecurrenceRule(.monthly, monthDay: 31), start: "2026-01-31")
        let list = ReminderSchedule.occurrences(of: r, after: at("2026-01-01 00:00", berlin), count: 4, zone: berlin)
        #expect(list.map { String($0.iso8601Local.prefix(10)) } == ["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31"])
    }

    @Test(arguments: ["FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY;BYDAY=MO,WE,FR;WKST=MO",
                      "FREQ=WEEKLY;INTERVAL=2;WKST=MO", "FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1"])
    func rulesRoundTrip(_ text: String) throws {
        #expect(try RecurrenceRule(parsing: text).description == text)
    }

    @Test(arguments: ["FREQ=YEARLY", "FREQ=DAILY;BYDAY=MO", "FREQ=WEEKLY;BYDAY=1MO", "FREQ=MONTHLY;BYMONTHDAY=32",
                      "FREQ=DAILY;COUNT=3", "INTERVAL=2"])
    func unsupportedRulesAreRefused(_ text: String) {
        #expect(throws: JournalError.self) { try RecurrenceRule(parsing: text) }
    }
}
