/// An instant with the UTC offset it was recorded in.
///
/// Stored as milliseconds since the Unix epoch; the offset only matters for showing local dates
/// (`healthspool day`) and never for identity.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millis: Int64
    /// Offset from UTC, in seconds, that the source wrote.
    public var utcOffsetSeconds: Int32

    /// Creates a timestamp.
    public init(millis: Int64, utcOffsetSeconds: Int32 = 0) {
        self.millis = millis
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Creates a timestamp from whole seconds since the epoch.
    public init(seconds: Int64, utcOffsetSeconds: Int32 = 0) {
        self.init(millis: seconds * 1000, utcOffsetSeconds: utcOffsetSeconds)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.millis < rhs.millis }
    public static func == (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.millis == rhs.millis }
    public func hash(into hasher: inout Hasher) { hasher.combine(millis) }

    /// This instant shifted by a number of milliseconds, keeping the offset.
    public func adding(millis delta: Int64) -> Timestamp {
        Timestamp(millis: millis + delta, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// RFC 3339 in UTC with milliseconds: `2026-01-01T09:00:00.000Z`.
    public var iso8601UTC: String {
        let (days, msOfDay) = Self.floorDivide(millis, 86_400_000)
        return Self.format(days: days, msOfDay: msOfDay, suffix: "Z")
    }

    /// RFC 3339 in the recorded offset: `2026-01-01T10:00:00.000+01:00`.
    public var iso8601Local: String {
        let local = millis + Int64(utcOffsetSeconds) * 1000
        let (days, msOfDay) = Self.floorDivide(local, 86_400_000)
        let off = Int(utcOffsetSeconds)
        let sign = off < 0 ? "-" : "+"
        let a = abs(off)
        let suffix = sign + Self.pad(a / 3600, 2) + ":" + Self.pad((a % 3600) / 60, 2)
        return Self.format(days: days, msOfDay: msOfDay, suffix: off == 0 ? "Z" : suffix)
    }

    /// The local calendar date (in the recorded offset).
    public var localDate: CivilDate {
        let local = millis + Int64(utcOffsetSeconds) * 1000
        return CivilDate(daysSinceEpoch: Self.floorDivide(local, 86_400_000).0)
    }

    static func format(days: Int64, msOfDay: Int64, suffix: String) -> String {
        let d = CivilDate(daysSinceEpoch: days)
        let h = Int(msOfDay / 3_600_000), m = Int(msOfDay / 60_000 % 60)
        let s = Int(msOfDay / 1000 % 60), ms = Int(msOfDay % 1000)
        return d.description + "T" + pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(ms, 3) + suffix
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// Floor division and its non-negative remainder.
    public static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var q = a / b, r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }
}

/// A proleptic Gregorian calendar date.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01 (Howard Hinnant's civil-from-days).
    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), month: Int(m), day: Int(d))
    }

    /// Days since 1970-01-01 (days-from-civil).
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Day of week, 0 = Sunday … 6 = Saturday.
    public var weekday: Int { Int(Timestamp.floorDivide(daysSinceEpoch + 4, 7).1) }

    /// Number of days in this date's month.
    public var daysInMonth: Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        Timestamp.pad(year, 4) + "-" + Timestamp.pad(month, 2) + "-" + Timestamp.pad(day, 2)
    }

    /// Parses `YYYY-MM-DD`: a year of four digits (0000–9999, as written back), a month and day
    /// of one or two. A longer year overflowed the day arithmetic and stopped the daemon
    /// (`/day/00…0499…-03-31`, W2 of the web fuzz target).
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        func digits(_ p: Substring, _ counts: ClosedRange<Int>) -> Bool {
            counts.contains(p.utf8.count) && p.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        guard parts.count == 3, digits(parts[0], 4...4), digits(parts[1], 1...2), digits(parts[2], 1...2),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), d >= 1 else { return nil }
        self.init(year: y, month: m, day: d)
        guard d <= daysInMonth else { return nil }
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
}
