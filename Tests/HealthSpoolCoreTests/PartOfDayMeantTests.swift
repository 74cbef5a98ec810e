import Testing
@testable import HealthSpoolCore

/// Issue 40, item 1: a part of the day chosen is a time the person meant, not now.
@Suite struct PartOfDayMeantTests {
    let zone = ZoneRules.fixed(name: "UTC+1", offset: 3600)
    let day = CivilDate(year: 2026, month: 11, day: 28)

    func local(_ t: Timestamp) -> String { String(LocalDay.timestamp(t.millis, in: zone).iso8601Local.prefix(16)) }
    func at(_ h: Int, _ m: Int = 0, day: CivilDate? = nil) -> Timestamp { LocalDay.timestamp(day ?? self.day, hour: h, minute: m, in: zone) }

    @Test(arguments: [
        // chosen at, part → stored at
        (18, 7, PartOfDay.morning, "2026-11-28T08:30"),     // the report: "this morning" at 18:07
        (18, 7, .afternoon, "2026-11-28T14:30"),
        (18, 7, .evening, "2026-11-28T18:07"),              // the middle (19:00) is still to come: now
        (18, 7, .night, "2026-11-28T01:00"),                // last night
        (6, 0, .morning, "2026-11-28T06:00"),
        (11, 0, .morning, "2026-11-28T08:30"),
        (3, 0, .morning, "2026-11-27T08:30"),               // this morning has not begun: yesterday's
        (23, 0, .night, "2026-11-28T23:00"),
        (2, 0, .night, "2026-11-28T01:00"),
        (0, 30, .night, "2026-11-28T00:30"),
        (12, 0, .evening, "2026-11-27T19:00"),
    ])
    func aPartChosenIsTheTimeMeant(h: Int, m: Int, part: PartOfDay, stored: String) {
        let t = part.meantTime(now: at(h, m), zone: zone)
        #expect(local(t) == stored)
        #expect(t.millis <= at(h, m).millis)
        #expect(PartOfDay(of: LocalDay.timestamp(t.millis, in: zone)) == part)
    }

    /// Property: at any minute of two days, every part gives a time in that part, never in the
    /// future, at most 32 hours back.
    @Test func everyChoiceIsInThePartAndNotInTheFuture() {
        for minute in stride(from: 0, to: 48 * 60, by: 7) {
            let now = LocalDay.timestamp(at(0).millis + Int64(minute) * 60_000, in: zone)
            for part in PartOfDay.allCases {
                let t = LocalDay.timestamp(part.meantTime(now: now, zone: zone).millis, in: zone)
                #expect(PartOfDay(of: t) == part, "\(local(now)) \(part)")
                #expect(t.millis <= now.millis && now.millis - t.millis <= 32 * 3_600_000, "\(local(now)) \(part)")
            }
        }
    }

    @Test func aPartOnADayIsItsMiddleNeverAfterNow() {
        #expect(local(PartOfDay.evening.meantTime(on: day, now: at(23), zone: zone)) == "2026-11-28T19:00")
        #expect(local(PartOfDay.night.meantTime(on: day, now: at(23), zone: zone)) == "2026-11-28T01:00")
        #expect(local(PartOfDay.evening.meantTime(on: day, now: at(18), zone: zone)) == "2026-11-28T18:00")
    }

    @Test func shownAsThePartWhenMeant() {
        #expect(PartOfDay.shown(at(8, 30), part: .morning, meant: true) == "Morning")
        #expect(PartOfDay.shown(at(18, 7), part: .evening, meant: false) == "18:07")
        #expect(PartOfDay.night.phrase == "at night" && PartOfDay.morning.phrase == "in the morning")
    }
}
