import HealthSpoolCore
import Testing

@Suite("Timestamp parsing")
struct TimestampParserTests {
    func utc(_ text: String, defaultOffset: Int32 = 0) -> String? {
        TimestampParser.parse(text, defaultOffsetSeconds: defaultOffset)?.iso8601UTC
    }

    @Test(arguments: [
        ("2026-01-01 10:00:00 +0100", "2026-01-01T09:00:00.000Z"),
        ("2026-01-01T10:00:00Z", "2026-01-01T10:00:00.000Z"),
        ("2026-01-01T10:00:00.250+01:00", "2026-01-01T09:00:00.250Z"),
        ("2026-01-01t10:00:00z", "2026-01-01T10:00:00.000Z"),
        ("20151107171924+0100", "2015-11-07T16:19:24.000Z"),
        ("2026-01-01", "2026-01-01T00:00:00.000Z"),
        ("2026-01-01 10:00", "2026-01-01T10:00:00.000Z"),
        ("2024-9-8 7:05:00 +0000", "2024-09-08T07:05:00.000Z"),
        ("2024-09-28 16:51:59 -0700", "2024-09-28T23:51:59.000Z"),
        ("2024-09-28 10:00:00 +0530", "2024-09-28T04:30:00.000Z"),
        ("  2024-09-28 10:00:00 +0000  ", "2024-09-28T10:00:00.000Z"),
    ])
    func twentyFourHourAndISOForms(_ text: String, _ expected: String) {
        #expect(utc(text) == expected)
    }

    @Test(arguments: [
        ("2024-09-28 4:51:59 pm +1000", "2024-09-28T06:51:59.000Z"),
        ("2024-09-28 4:51:59 PM +1000", "2024-09-28T06:51:59.000Z"),
        ("2024-09-28 4:51:59pm +1000", "2024-09-28T06:51:59.000Z"),
        ("2024-09-28 4:51:59\u{202F}pm +1000", "2024-09-28T06:51:59.000Z"),   // narrow no-break space (iOS 17)
        ("2024-09-28 4:51:59\u{00A0}pm +1000", "2024-09-28T06:51:59.000Z"),   // no-break space
        ("2024-09-28 12:00:00 am +0000", "2024-09-28T00:00:00.000Z"),
        ("2024-09-28 12:30:00 pm +0000", "2024-09-28T12:30:00.000Z"),
        ("2024-09-28 11:59:59 pm +0000", "2024-09-28T23:59:59.000Z"),
        ("2024-09-28 1:05 am +0000", "2024-09-28T01:05:00.000Z"),
        ("2024-09-28 4:51:59\u{202F}pm", "2024-09-28T16:51:59.000Z"),
    ])
    func twelveHourForms(_ text: String, _ expected: String) {
        #expect(utc(text) == expected)
    }

    @Test func twelveAndTwentyFourHourGiveTheSameInstantAndOffset() throws {
        let a = try #require(TimestampParser.parse("2024-09-28 4:51:59\u{202F}pm +1000"))
        let b = try #require(TimestampParser.parse("2024-09-28 16:51:59 +1000"))
        #expect(a == b)
        #expect(a.utcOffsetSeconds == 36_000 && b.utcOffsetSeconds == 36_000)
        #expect(a.iso8601Local == "2024-09-28T16:51:59.000+10:00")
    }

    @Test func aMissingOffsetTakesTheDefault() throws {
        let t = try #require(TimestampParser.parse("2024-09-28 00:00:00", defaultOffsetSeconds: 7200))
        #expect(t.iso8601UTC == "2024-09-27T22:00:00.000Z")
        #expect(t.utcOffsetSeconds == 7200)
    }

    @Test(arguments: [
        "", "yesterday", "2024", "2024-13-01", "2024-02-30", "2023-02-29 10:00:00 +0000",
        "2024-09-28 13:00:00 pm +0000", "2024-09-28 0:30:00 am +0000", "2024-09-28 24:00:00 +0000",
        "2024-09-28 10:60:00 +0000", "2024-09-28 10:00:00 CEST", "2024-09-28 10:00:00 +01x", "28.09.2024 10:00",
        "2024-09-28 10:00:00 +0000 extra",
    ])
    func rejects(_ text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func leapDayIsAccepted() {
        #expect(utc("2024-02-29 12:00:00 +0000") == "2024-02-29T12:00:00.000Z")
    }

    /// Fuzz finding T1 (timestamp target): the instant parsed, but in UTC it is year 10000, which
    /// `iso8601UTC` wrote as `10000-01-01T13:59:59.999Z` and nothing reads back. Instants outside
    /// years 0000–9999, in UTC or in their own offset, are refused.
    @Test(arguments: [
        "9999-12-31T23:59:59.999-14:00", "9999-12-31T23:59:60Z", "9999-12-31 23:59:60 +0100",
        "0000-01-01T00:00:00+00:01", "0000-01-01 00:59:59 +0100",
    ])
    func instantsOutsideFourDigitYearsAreRefused(_ text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    /// The edges of the range parse and are written back as text that parses to the same instant.
    @Test(arguments: [
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
        ("9999-12-31T23:59:59.999+14:00", "9999-12-31T09:59:59.999Z"),
        ("0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000Z"),
        ("0000-01-01T00:00:00-14:00", "0000-01-01T14:00:00.000Z"),
    ])
    func theEdgesOfTheRangeRoundTrip(_ text: String, _ expected: String) throws {
        let t = try #require(TimestampParser.parse(text))
        #expect(t.iso8601UTC == expected)
        for written in [t.iso8601UTC, t.iso8601Local] {
            let back = try #require(TimestampParser.parse(written))
            #expect(back.millis == t.millis)
        }
    }

    /// Fuzz finding T2 (timestamp target, its input): `-9999` read as an offset of -99:99
    /// (-100:39), which `iso8601Local` wrote with three-digit hours that nothing reads back.
    /// Offsets past ±18:00 or with minutes past 59 are refused.
    @Test(arguments: ["9999-1-1-9999 ", "2026-01-01T10:00:00+00:99", "2026-01-01T10:00:00+18:01", "2026-01-01 10:00:00 -2400"])
    func offsetsTheWriterCannotWriteAreRefused(_ text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test(arguments: ["2026-01-01T10:00:00+18:00", "2026-01-01T10:00:00-18:00", "2026-01-01 10:00:00 +0545"])
    func offsetsUpToEighteenHoursRoundTrip(_ text: String) throws {
        let t = try #require(TimestampParser.parse(text))
        let back = try #require(TimestampParser.parse(t.iso8601Local))
        #expect(back.millis == t.millis && back.utcOffsetSeconds == t.utcOffsetSeconds)
    }
}
