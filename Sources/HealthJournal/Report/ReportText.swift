import HealthSpoolCore

/// The doctor's summary's figures and dates as text: what `ReportSections` holds for its
/// templates (a person's dates, not ISO; figures with at most one decimal place).
enum ReportText {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `3 Nov 2026`: a date as a person writes it, not ISO (issue 40).
    static func short(_ d: CivilDate) -> String {
        "\(d.day) \(months[d.month - 1]) \(d.year)"
    }

    /// `Tue 3 Nov 2026`.
    static func long(_ d: CivilDate) -> String {
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        return "\(weekdays[d.weekday]) \(d.day) \(months[d.month - 1]) \(d.year)"
    }

    /// `3 Nov 2026, 08:15` in the time's own offset.
    static func when(_ t: Timestamp) -> String {
        let s = t.iso8601Local
        return (CivilDate(parsing: String(s.prefix(10))).map(short) ?? String(s.prefix(10))) + ", " + String(s.dropFirst(11).prefix(5))
    }

    /// A figure with at most one decimal place.
    static func number(_ v: Double) -> String {
        let r = VisitReport.rounded(v)
        if r == r.rounded(), abs(r) < 1e15 { return grouped(Int64(r)) }
        let whole = Int64(r.rounded(.towardZero)), tenth = Int64((abs(r) * 10).rounded()) % 10
        return (r < 0 && whole == 0 ? "-" : "") + grouped(whole) + "." + String(tenth)
    }

    /// `12,345`.
    static func grouped(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// Minutes as `7 h 05 min`.
    static func duration(_ minutes: Double) -> String {
        let m = Int(minutes.rounded())
        return "\(m / 60) h " + (m % 60 < 10 ? "0" : "") + "\(m % 60) min"
    }
}

/// A coordinate or a length of a chart (SVG user units, or millimetres on the ECG strip): a
/// number, written with one decimal place at most (`12`, `12.5`) wherever a template puts it.
public struct ChartNumber: Sendable, Equatable, CustomStringConvertible {
    public var value: Double

    public init(_ value: Double) { self.value = value }

    public var description: String {
        let r = (value * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
