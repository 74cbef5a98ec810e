import Testing
@testable import HealthSpoolCore

/// A source that went quiet (issue 43): the usual gap is learned from its arrivals, with a
/// floor of 2 days; time is an input.
@Suite struct SourceFreshnessTests {
    let hour: Int64 = 3_600_000
    let day: Int64 = 86_400_000
    let t0: Int64 = 1_773_057_600_000   // 2026-03-09T12:00:00Z

    @Test func aDailySourceIsQuietAfterTheTwoDayFloorAndNotBefore() {
        let first = SourceFreshness(source: "Apple Watch", type: "heartRate", newestMillis: t0 - hour, arrivedMillis: t0)
        #expect(!first.isQuiet(now: t0 + 30 * day))   // seen once: no usual gap, history not silence
        let daily = first.arrived(newest: t0 + day - hour, at: t0 + day)
        #expect(daily.usualGapMillis == day && daily.arrivals == 2 && daily.quietAfterMillis == 2 * day)
        #expect(!daily.isQuiet(now: t0 + 3 * day))
        #expect(daily.isQuiet(now: t0 + 3 * day + 1))
    }

    @Test func aWeeklySourceWaitsItsOwnGapAndAnArrivalEndsTheQuietSpell() {
        var f = SourceFreshness(source: "Scale", type: "bodyMass", newestMillis: t0, arrivedMillis: t0)
        for week in 1...3 { f = f.arrived(newest: t0 + Int64(week) * 7 * day, at: t0 + Int64(week) * 7 * day) }
        #expect(f.usualGapMillis == 7 * day)
        let last = t0 + 21 * day
        #expect(!f.isQuiet(now: last + 6 * day))
        #expect(f.isQuiet(now: last + 8 * day))
        f.notifiedMillis = last + 8 * day
        let back = f.arrived(newest: last + 8 * day, at: last + 8 * day)
        #expect(!back.isQuiet(now: last + 8 * day + hour) && back.notifiedMillis == nil)
    }

    @Test func arrivalsWithinTheHourAreOneAndTheNewestNeverGoesBack() {
        let f = SourceFreshness(source: "Apple Watch", type: "heartRate", newestMillis: t0, arrivedMillis: t0)
        let again = f.arrived(newest: t0 - day, at: t0 + 10 * 60_000)   // a late file right after
        #expect(again.arrivals == 1 && again.usualGapMillis == 0 && again.newestMillis == t0)
    }

    @Test func theLineNamesTheSourceTheTypeInWordsAndTheDayOfTheNewestSample() {
        let f = SourceFreshness(source: "Apple Watch", type: "heartRate", newestMillis: 1_773_144_000_000, arrivedMillis: 0)
        #expect(QuietSources.line(f, zone: .utc) == "Your Apple Watch has sent no heart rate since Tuesday 10 March")
        var owned = f
        owned.source = "Alex’s Apple Watch"
        #expect(QuietSources.line(owned, zone: .utc) == "Alex’s Apple Watch has sent no heart rate since Tuesday 10 March")
    }
}
