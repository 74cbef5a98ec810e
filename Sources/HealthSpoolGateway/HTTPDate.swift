/// Reads the HTTP date a `Retry-After` header may carry (IMF-fixdate, RFC 9110 §5.6.7):
/// `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Milliseconds since the epoch, or nil when `text` is not an IMF-fixdate.
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        // The year is four digits (RFC 9110's `4DIGIT`): a longer one overflowed the
        // milliseconds and crashed the daemon (fuzz finding, gateway target).
        guard parts.count == 6, parts[5].uppercased() == "GMT", parts[3].count == 4,
              let day = Int(parts[1]), let month = months.firstIndex(of: parts[2].lowercased()), let year = Int(parts[3]) else { return nil }
        let hms = parts[4].split(separator: ":").compactMap { Int($0) }
        guard hms.count == 3, (1...31).contains(day), (0...23).contains(hms[0]), (0...59).contains(hms[1]), (0...60).contains(hms[2]) else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return ((days * 24 + Int64(hms[0])) * 60 + Int64(hms[1])) * 60_000 + Int64(hms[2]) * 1000
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
