import Testing
@testable import HealthSpoolCore

@Suite struct TimestampTests {
    @Test func formatsUTCAndLocalRFC3339() {
        let t = Timestamp(millis: 1_767_261_600_250, utcOffsetSeconds: 3600)
        #expect(t.iso8601UTC == "2026-01-01T10:00:00.250Z")
        #expect(t.iso8601Local == "2026-01-01T11:00:00.250+01:00")
        #expect(Timestamp(millis: -1).iso8601UTC == "1969-12-31T23:59:59.999Z")
    }

    @Test(arguments: [(1970, 1, 1, 0), (2000, 2, 29, 11016), (2026, 11, 22, 20779), (1969, 12, 31, -1)])
    func civilDatesRoundTripThroughDayNumbers(y: Int, m: Int, d: Int, days: Int64) {
        let date = CivilDate(year: y, month: m, day: d)
        #expect(date.daysSinceEpoch == days)
        #expect(CivilDate(daysSinceEpoch: days) == date)
    }

    @Test func weekdayAndMonthLength() {
        #expect(CivilDate(year: 2026, month: 11, day: 22).weekday == 0)
        #expect(CivilDate(year: 2024, month: 2, day: 1).daysInMonth == 29)
        #expect(CivilDate(year: 2100, month: 2, day: 1).daysInMonth == 28)
        #expect(CivilDate(parsing: "2026-02-30") == nil)
    }

    /// W2 (web fuzz target): `/day/00000000000000000000000000000004991677238259235423-03-31`
    /// parsed to a year past Int64's day arithmetic and the day page overflowed, stopping the
    /// daemon. Only four-digit years are dates; what parses is written back the same.
    @Test func onlyFourDigitYearsAreDates() {
        #expect(CivilDate(parsing: "00000000000000000000000000000004991677238259235423-03-31") == nil)
        #expect(CivilDate(parsing: "99999-01-01") == nil)
        #expect(CivilDate(parsing: "+2026-01-01") == nil)
        #expect(CivilDate(parsing: "2026--1-01") == nil)
        #expect(CivilDate(parsing: "2026-1-5") == CivilDate(year: 2026, month: 1, day: 5))
        #expect(CivilDate(parsing: "0000-01-01")?.description == "0000-01-01")
        #expect(CivilDate(parsing: "9999-12-31")?.description == "9999-12-31")
    }
}
