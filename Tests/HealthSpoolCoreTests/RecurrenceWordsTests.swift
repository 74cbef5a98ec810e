import Testing
@testable import HealthSpoolCore

@Suite struct RecurrenceWordsTests {
    static let eight = [TimeOfDay(hour: 8, minute: 0)!]

    @Test(arguments: [
        (RecurrenceRule(.daily), "Every day at 08:00"),
        (RecurrenceRule(.daily, interval: 2), "Every other day at 08:00"),
        (RecurrenceRule(.daily, interval: 3), "Every 3 days at 08:00"),
        (RecurrenceRule(.weekly, interval: 3), "Every 3 weeks on Sunday at 08:00"),  // 2026-03-01 is a Sunday
        (RecurrenceRule(.weekly, weekdays: [.monday, .tuesday, .wednesday, .thursday, .friday]), "Monday to Friday at 08:00"),
        (RecurrenceRule(.weekly, weekdays: [.friday, .monday, .wednesday]), "Monday, Wednesday and Friday at 08:00"),
        (RecurrenceRule(.weekly, interval: 2, weekdays: [.tuesday]), "Every other week on Tuesday at 08:00"),
        (RecurrenceRule(.weekly, interval: 2, weekdays: [.saturday, .sunday]), "Every other week on Saturday and Sunday at 08:00"),
        (RecurrenceRule(.monthly, monthDay: 15), "Every month on the 15th at 08:00"),
        (RecurrenceRule(.monthly, interval: 3, monthDay: 1), "Every 3 months on the 1st at 08:00"),
        (RecurrenceRule(.monthly, monthDay: 22), "Every month on the 22nd at 08:00"),
        (RecurrenceRule(.monthly, monthDay: 11), "Every month on the 11th at 08:00"),
    ])
    func aRuleIsSaidInWords(rule: RecurrenceRule, words: String) {
        #expect(RecurrenceWords.rule(rule, times: Self.eight, start: CivilDate(year: 2026, month: 3, day: 1)) == words)
    }

    @Test func severalTimesAndAOneOffAreSaidInWords() {
        let times = [TimeOfDay(hour: 8, minute: 0)!, TimeOfDay(hour: 13, minute: 30)!, TimeOfDay(hour: 20, minute: 0)!]
        #expect(RecurrenceWords.rule(RecurrenceRule(.daily), times: times) == "Every day at 08:00, 13:30 and 20:00")
        #expect(RecurrenceWords.rule(nil) == "Once")
        #expect(RecurrenceWords.rule(RecurrenceRule(.monthly), start: CivilDate(year: 2026, month: 3, day: 3)) == "Every month on the 3rd")
    }

    @Test func theNextRingIsTodayTomorrowAWeekdayOrADate() {
        let now = at("2026-06-10 09:00", berlin)  // a Wednesday
        #expect(RecurrenceWords.next(at("2026-06-10 20:00", berlin), now: now, zone: berlin) == "today 20:00")
        #expect(RecurrenceWords.next(at("2026-06-11 08:00", berlin), now: now, zone: berlin) == "tomorrow 08:00")
        #expect(RecurrenceWords.next(at("2026-06-15 08:00", berlin), now: now, zone: berlin) == "Monday 08:00")
        #expect(RecurrenceWords.next(at("2026-07-01 08:00", berlin), now: now, zone: berlin) == "Wednesday 1 July 08:00")
        #expect(RecurrenceWords.next(at("2027-01-04 08:00", berlin), now: now, zone: berlin) == "Monday 4 January 2027 08:00")
        #expect(RecurrenceWords.next(nil, now: now, zone: berlin) == "never")
    }

    @Test func everyOtherDayAtEightNextRingsTomorrowWhenTodayIsPast() {
        // Started today at 09:00 (after 08:00): today is an occurrence, its 08:00 has passed, the
        // next is the day after tomorrow. Started yesterday: tomorrow.
        let now = at("2026-06-10 09:00", berlin)
        let today = reminder(["08:00"], RecurrenceRule(.daily, interval: 2), start: "2026-06-10", created: now)
        let next = ReminderSchedule.occurrences(of: today, after: now, count: 1, zone: berlin).first
        #expect(RecurrenceWords.next(next, now: now, zone: berlin) == "Friday 08:00")
        let yesterday = reminder(["08:00"], RecurrenceRule(.daily, interval: 2), start: "2026-06-09", created: now)
        let soon = ReminderSchedule.occurrences(of: yesterday, after: now, count: 1, zone: berlin).first
        #expect(RecurrenceWords.next(soon, now: now, zone: berlin) == "tomorrow 08:00")
        // Across the spring change the wall clock is kept: "tomorrow 08:00" in summer time.
        let spring = at("2026-03-28 09:00", berlin)
        let daily = reminder(["08:00"], RecurrenceRule(.daily), start: "2026-03-01")
        let after = ReminderSchedule.occurrences(of: daily, after: spring, count: 1, zone: berlin).first
        #expect(after?.iso8601Local == "2026-03-29T08:00:00.000+02:00")
        #expect(RecurrenceWords.next(after, now: spring, zone: berlin) == "tomorrow 08:00")
    }
}
