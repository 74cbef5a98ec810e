import Testing
@testable import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads a tz database file (tests only: core itself never touches files).
func tzif(_ name: String) -> [UInt8]? {
    guard let f = fopen("/usr/share/zoneinfo/" + name, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return out
}

@Suite struct ZoneRulesTests {
    @Test(arguments: [("Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3"), ("America/New_York", "EST5EDT,M3.2.0,M11.1.0")])
    func theTZifFileAndItsRuleAgree(_ name: String, _ posix: String) throws {
        let bytes = try #require(tzif(name), "tzdata is installed (scripts/setup-deps.sh --test)")
        let zone = try ZoneRules(name: name, tzif: bytes)
        #expect(zone.rule == PosixZoneRule(parsing: posix))
        let rule = try #require(PosixZoneRule(parsing: posix))
        // Every 7 hours of 2008–2040 (after the last US rule change): the file's transitions
        // (and its rule past them) agree with the rule.
        var t: Int64 = 1_199_145_600
        while t < 2_208_988_800 {
            #expect(zone.offset(atUTCSeconds: t) == rule.offset(atUTCSeconds: t))
            t += 3600 * 7
        }
    }

    /// One zone type serves both uses: the journal's day rules (`LocalDay`, instants in
    /// milliseconds through `offset(atUTCMillis:)`) and the day view and reminders (`WallClock`,
    /// seconds through `offset(atUTCSeconds:)`) find the same days of 23 and 25 hours.
    @Test(arguments: [("Europe/Berlin", "2026-03-29", 23), ("Europe/Berlin", "2026-10-25", 25), ("Europe/Berlin", "2026-06-01", 24),
                      ("America/New_York", "2026-03-08", 23), ("America/New_York", "2026-11-01", 25)])
    func aDSTDayLastsAsLongInBothUses(_ name: String, _ date: String, _ hours: Int) throws {
        let zone = try ZoneRules(name: name, tzif: try #require(tzif(name), "tzdata is installed (scripts/setup-deps.sh --test)"))
        let day = try #require(CivilDate(parsing: date))
        let journal = LocalDay.bounds(of: day, in: zone)
        let (start, end) = WallClock.bounds(of: day, zone: zone)
        #expect(journal.upperBound - journal.lowerBound == Int64(hours) * 3_600_000)
        #expect(end - start == Int64(hours) * 3_600_000)
        #expect(journal == start..<end)
        // The two units read the same offset at the same instant, either side of the change.
        for t in [start, start + 2 * 3_600_000, start + 4 * 3_600_000] {
            #expect(zone.offset(atUTCMillis: t) == zone.offset(atUTCSeconds: t / 1000))
        }
    }

    @Test func localTimesResolveAsRFC5545Says() {
        let zone = berlin
        let day = CivilDate(year: 2026, month: 3, day: 29).daysSinceEpoch * 86_400
        #expect(zone.resolve(local: day + 2 * 3600 + 1800) == .nonexistent(shifted: day + 3600 + 1800))
        let fall = CivilDate(year: 2026, month: 10, day: 25).daysSinceEpoch * 86_400 + 2 * 3600 + 1800
        #expect(zone.resolve(local: fall) == .ambiguous(first: fall - 7200, second: fall - 3600))
        #expect(zone.resolve(local: day + 8 * 3600) == .unique(day + 6 * 3600))
    }

    @Test func garbageIsRefusedWithTheZoneName() {
        #expect(throws: ZoneRulesError.self) { try ZoneRules(name: "Nowhere/Land", tzif: Array("not a zone".utf8)) }
        #expect(PosixZoneRule(parsing: "CET-1CEST,M13.5.0,M10.5.0") == nil)
    }
}
