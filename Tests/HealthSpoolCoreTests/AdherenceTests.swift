import Testing
@testable import HealthSpoolCore

/// Doses due by the reminders against doses logged: on time within an hour, late before the
/// next dose's hour, missed; by week.
@Suite struct AdherenceTests {
    /// The due times of `r` in the week of 2026-03-02 (Monday) to 2026-03-08 in Berlin.
    static func due(_ r: Reminder, from: String = "2026-03-02 00:00", through: String = "2026-03-08 23:59") -> [Timestamp] {
        ReminderSchedule.occurrences(of: r, after: at(from, berlin), through: at(through, berlin), zone: berlin)
    }

    @Test func twiceADayForAWeekWithOneMissedAndOneLate() {
        let due = Self.due(reminder(["08:00", "20:00"], RecurrenceRule(.daily)))
        #expect(due.count == 14)
        // Every dose within minutes of its time, except Wednesday evening (missed) and Friday
        // morning (taken at 10:30: late).
        var taken = due.enumerated().compactMap { i, t in i == 5 ? nil : t.adding(millis: Int64(i % 3) * 10 * 60_000) }
        taken[7] = at("2026-03-06 10:30", berlin)
        let matched = Adherence.match(due: due, taken: taken, through: at("2026-03-09 00:00", berlin))
        #expect(Adherence.count(matched) == AdherenceCount(onTime: 12, late: 1, missed: 1))
        #expect(matched[5].timing == .missed && matched[5].taken == nil)
        #expect(matched[8].timing == .late && matched[8].taken == at("2026-03-06 10:30", berlin))
    }

    @Test func theHourEitherWayIsOnTimeAndOneMinuteMoreIsNot() {
        let due = [at("2026-03-02 08:00", berlin), at("2026-03-02 20:00", berlin)]
        let end = at("2026-03-03 00:00", berlin)
        #expect(Adherence.count(Adherence.match(due: due, taken: [at("2026-03-02 07:00", berlin), at("2026-03-02 21:00", berlin)], through: end))
                == AdherenceCount(onTime: 2))
        // 09:01 and 18:59 are late for the morning; from 19:00 on a dose is the evening's.
        for late in ["09:01", "18:59"] {
            #expect(Adherence.count(Adherence.match(due: due, taken: [at("2026-03-02 " + late, berlin)], through: end))
                    == AdherenceCount(late: 1, missed: 1))
        }
        #expect(Adherence.count(Adherence.match(due: due, taken: [at("2026-03-02 19:01", berlin)], through: end))
                == AdherenceCount(onTime: 1, missed: 1))
    }

    @Test func aDoseCountsForOneDueTimeOnly() {
        // Two reminders at the same time are one due dose; one dose taken for two due times an hour apart.
        let due = [at("2026-03-02 08:00", berlin), at("2026-03-02 08:00", berlin), at("2026-03-02 09:00", berlin)]
        let matched = Adherence.match(due: due, taken: [at("2026-03-02 08:30", berlin)], through: at("2026-03-02 12:00", berlin))
        #expect(Adherence.count(matched) == AdherenceCount(onTime: 1, missed: 1))
    }

    @Test func aReminderEveryOtherDay() {
        let r = reminder(["09:00"], RecurrenceRule(.daily, interval: 2), start: "2026-03-02")
        let due = Self.due(r)
        #expect(due.map { $0.localDate.description } == ["2026-03-02", "2026-03-04", "2026-03-06", "2026-03-08"])
        // Taken every day: the doses of the days between count for nothing; 03-04 taken at 12:00 is late.
        let taken = (2...8).map { at("2026-03-0\($0) \($0 == 4 ? "12" : "09"):05", berlin) }
        let matched = Adherence.match(due: due, taken: taken, through: at("2026-03-09 00:00", berlin))
        #expect(matched.map(\.timing) == [.onTime, .late, .onTime, .onTime])
    }

    @Test func weeksStartOnMonday() {
        let r = reminder(["21:30"], RecurrenceRule(.daily))
        let due = Self.due(r, from: "2026-03-06 00:00", through: "2026-03-10 23:59")   // Friday to Tuesday
        let taken = [at("2026-03-06 21:40", berlin), at("2026-03-08 23:55", berlin), at("2026-03-10 21:30", berlin)]
        let weeks = Adherence.byWeek(Adherence.match(due: due, taken: taken, through: at("2026-03-11 00:00", berlin)))
        #expect(weeks.map(\.week.description) == ["2026-03-02", "2026-03-09"])
        // Fri on time, Sat missed, Sun late (23:55); Mon missed, Tue on time.
        #expect(weeks.map(\.count) == [AdherenceCount(onTime: 1, late: 1, missed: 1), AdherenceCount(onTime: 1, missed: 1)])
        #expect(Adherence.weekStart(of: CivilDate(parsing: "2026-03-08")!).description == "2026-03-02")
        #expect(Adherence.weekStart(of: CivilDate(parsing: "2026-03-09")!).description == "2026-03-09")
    }

    @Test func aDoseStillInItsHourIsNotYetMissed() {
        let due = [at("2026-03-02 08:00", berlin), at("2026-03-02 20:00", berlin)]
        let matched = Adherence.match(due: due, taken: [at("2026-03-02 08:05", berlin)], through: at("2026-03-02 20:30", berlin))
        #expect(Adherence.count(matched) == AdherenceCount(onTime: 1))
        #expect(Adherence.count(Adherence.match(due: due, taken: [], through: at("2026-03-02 21:00", berlin))) == AdherenceCount(missed: 2))
    }

    @Test func aDoseMoreThanAnHourEarlyCountsForNothing() {
        let due = [at("2026-03-02 08:00", berlin)]
        let matched = Adherence.match(due: due, taken: [at("2026-03-02 06:30", berlin)], through: at("2026-03-02 12:00", berlin))
        #expect(Adherence.count(matched) == AdherenceCount(missed: 1))
    }
}
