/// Parses the date formats health exports are written in, byte by byte (no `DateFormatter`:
/// it costs ~40 µs a call and would dominate an import).
///
/// Accepted:
/// - `2026-01-01 10:00:00 +0100` (Apple Health export, Health Auto Export 24-hour)
/// - `2024-09-28 4:51:59 pm +1000` (12-hour; a space, no-break or narrow no-break space before am/pm)
/// - `2026-01-01T10:00:00Z`, `2026-01-01T10:00:00.250+01:00` (RFC 3339 / ISO 8601)
/// - `20151107171924+0100` (iOS 8/9 exports)
/// - `2026-01-01` and `2026-01-01 10:00` (offset taken from `defaultOffsetSeconds`)
///
/// The offset must be at most ±18:00 with minutes below 60, and the instant must fall in years
/// 0000–9999 both in UTC and in its own offset, the range
/// `Timestamp.iso8601UTC` and `iso8601Local` write with four-digit years: what is parsed can be
/// written and read back (`9999-12-31T23:59:59.999-14:00` is year 10000 in UTC and is refused).
public enum TimestampParser {
    /// 0000-01-01T00:00:00.000Z, in milliseconds since the epoch.
    public static let earliestMillis: Int64 = CivilDate(year: 0, month: 1, day: 1).daysSinceEpoch * 86_400_000
    /// 9999-12-31T23:59:59.999Z, in milliseconds since the epoch.
    public static let latestMillis: Int64 = (CivilDate(year: 10_000, month: 1, day: 1).daysSinceEpoch * 86_400_000) - 1

    /// Parses `text`, or returns nil when it is not a date in one of the accepted forms.
    public static func parse(_ text: String, defaultOffsetSeconds: Int32 = 0) -> Timestamp? {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0), defaultOffsetSeconds: defaultOffsetSeconds) }
    }

    /// Parses the UTF-8 bytes of a date.
    public static func parse(_ b: UnsafeRawBufferPointer, defaultOffsetSeconds: Int32 = 0) -> Timestamp? {
        var i = 0
        let n = b.count
        while i < n, b[i] == 0x20 { i += 1 }
        func digits(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var v = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += count
            return v
        }
        func flexibleDigits(max: Int) -> Int? {
            var v = 0, k = 0
            while k < max, i < n, b[i] >= 0x30, b[i] <= 0x39 { v = v * 10 + Int(b[i] - 0x30); i += 1; k += 1 }
            return k == 0 ? nil : v
        }
        guard let year = digits(4) else { return nil }
        let compact = i < n && b[i] != 0x2D
        var month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0
        if compact {
            guard let mo = digits(2), let d = digits(2), let h = digits(2), let mi = digits(2), let s = digits(2)
            else { return nil }
            (month, day, hour, minute, second) = (mo, d, h, mi, s)
        } else {
            guard i < n, b[i] == 0x2D else { return nil }
            i += 1
            guard let mo = flexibleDigits(max: 2), i < n, b[i] == 0x2D else { return nil }
            i += 1
            guard let d = flexibleDigits(max: 2) else { return nil }
            (month, day) = (mo, d)
            if i < n, b[i] == 0x54 || b[i] == 0x20 || b[i] == 0x74 {
                i += 1
                guard let h = flexibleDigits(max: 2), i < n, b[i] == 0x3A else { return nil }
                i += 1
                guard let mi = digits(2) else { return nil }
                (hour, minute) = (h, mi)
                if i < n, b[i] == 0x3A {
                    i += 1
                    guard let s = digits(2) else { return nil }
                    second = s
                    if i < n, b[i] == 0x2E || b[i] == 0x2C {
                        i += 1
                        var scale = 100, k = 0
                        while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                            if k < 3 { millis += Int(b[i] - 0x30) * scale; scale /= 10 }
                            i += 1; k += 1
                        }
                    }
                }
                // 12-hour clock: optional (narrow) no-break space or space, then am/pm.
                let save = i
                skipSpaces(b, &i)
                if i + 1 < n, (b[i] | 0x20) == 0x61 || (b[i] | 0x20) == 0x70, (b[i + 1] | 0x20) == 0x6D {
                    let pm = (b[i] | 0x20) == 0x70
                    guard (1...12).contains(hour) else { return nil }
                    if pm, hour != 12 { hour += 12 }
                    if !pm, hour == 12 { hour = 0 }
                    i += 2
                } else {
                    i = save
                }
            }
        }
        guard (1...12).contains(month), day >= 1, day <= 31, hour < 24, minute < 60, second <= 60 else { return nil }
        var offset = defaultOffsetSeconds
        skipSpaces(b, &i)
        if i < n {
            if b[i] == 0x5A || b[i] == 0x7A {
                offset = 0
                i += 1
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let negative = b[i] == 0x2D
                i += 1
                guard let oh = digits(2) else { return nil }
                if i < n, b[i] == 0x3A { i += 1 }
                let om = digits(2) ?? 0
                // Offsets the writer can write back (two-digit hours, minutes below 60), within
                // ±18:00 as ISO 8601 tools allow (real ones stay within -12:00…+14:00).
                guard om < 60, oh * 3600 + om * 60 <= 18 * 3600 else { return nil }
                let total = Int32(oh * 3600 + om * 60)
                offset = negative ? -total : total
            } else {
                return nil
            }
        }
        skipSpaces(b, &i)
        guard i == n else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard day <= date.daysInMonth else { return nil }
        let local = (date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + Int64(millis)
        let utc = local - Int64(offset) * 1000
        // A leap second or an offset can carry the instant out of the four-digit years.
        guard (earliestMillis...latestMillis).contains(local), (earliestMillis...latestMillis).contains(utc) else { return nil }
        return Timestamp(millis: utc, utcOffsetSeconds: offset)
    }

    /// Skips spaces, tabs, NBSP (C2 A0) and narrow NBSP (E2 80 AF).
    static func skipSpaces(_ b: UnsafeRawBufferPointer, _ i: inout Int) {
        let n = b.count
        while i < n {
            if b[i] == 0x20 || b[i] == 0x09 { i += 1 }
            else if i + 1 < n, b[i] == 0xC2, b[i + 1] == 0xA0 { i += 2 }
            else if i + 2 < n, b[i] == 0xE2, b[i + 1] == 0x80, b[i + 2] == 0xAF { i += 3 }
            else { return }
        }
    }
}
