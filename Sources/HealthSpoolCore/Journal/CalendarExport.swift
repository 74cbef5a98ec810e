/// Writes reminders as an iCalendar file (RFC 5545) that calendar programs import.
///
/// One `VEVENT` per reminder and time of day (`UID` `reminder-<id>-<HHMM>@healthspool`), with
/// `DTSTART;TZID=<zone>` at that time on the series' first date, the reminder's `RRULE` and a
/// `VALARM` that displays at the start. The zone gets a `VTIMEZONE` built from its current
/// POSIX rule. Lines end in CRLF and are folded at 75 octets; text is escaped.
public struct CalendarExport: Sendable {
    public var zone: ZoneRules
    /// `DTSTAMP`: when the file was written.
    public var stamp: Timestamp

    public init(zone: ZoneRules, stamp: Timestamp) {
        self.zone = zone
        self.stamp = stamp
    }

    /// The whole `VCALENDAR`.
    public func calendar(_ reminders: [Reminder]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//healthspool//reminders \(HealthSpoolVersion.current)//EN",
                     "CALSCALE:GREGORIAN"]
        lines += timeZone()
        for r in reminders {
            for time in r.times { lines += event(r, time) }
        }
        lines.append("END:VCALENDAR")
        return lines.map(Self.fold).joined(separator: "\r\n") + "\r\n"
    }

    /// The unique id of one time of day's series.
    public static func uid(_ r: Reminder, _ time: TimeOfDay) -> String {
        "reminder-\(r.id)-\(Timestamp.pad(time.hour, 2))\(Timestamp.pad(time.minute, 2))@healthspool"
    }

    func event(_ r: Reminder, _ time: TimeOfDay) -> [String] {
        let start = ReminderSchedule.seriesStart(of: r)
        return [
            "BEGIN:VEVENT",
            "UID:" + Self.uid(r, time),
            "DTSTAMP:" + Self.utcDateTime(stamp),
            "DTSTART;TZID=\(zone.name):" + Self.localDateTime(start, time.seconds),
            "DURATION:PT5M",
            "RRULE:" + r.rule.description,
            "SUMMARY:" + Self.escape(r.name),
            "CATEGORIES:" + r.kind.rawValue.uppercased(),
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "TRIGGER:PT0S",
            "DESCRIPTION:" + Self.escape(r.name),
            "END:VALARM",
            "END:VEVENT",
        ]
    }

    /// The `VTIMEZONE` for `zone`: its current rule's daylight and standard parts, or one
    /// fixed standard offset.
    func timeZone() -> [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + zone.name]
        let rule = zone.rule ?? PosixZoneRule(standardOffset: zone.offsets.last ?? zone.initialOffset)
        if let dst = rule.daylight, let startRule = Self.yearly(dst.start), let endRule = Self.yearly(dst.end) {
            lines += part("DAYLIGHT", dst.start, from: rule.standardOffset, to: dst.offset, rrule: startRule)
            lines += part("STANDARD", dst.end, from: dst.offset, to: rule.standardOffset, rrule: endRule)
        } else {
            lines += ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:" + Self.offset(rule.standardOffset),
                      "TZOFFSETTO:" + Self.offset(rule.standardOffset), "END:STANDARD"]
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    func part(_ name: String, _ change: PosixZoneRule.ChangeDate, from: Int32, to: Int32, rrule: String) -> [String] {
        let time = min(max(change.time, 0), 86_399)
        return ["BEGIN:" + name, "DTSTART:" + Self.localDateTime(change.date(in: 1970), time),
                "TZOFFSETFROM:" + Self.offset(from), "TZOFFSETTO:" + Self.offset(to), "RRULE:" + rrule, "END:" + name]
    }

    /// A month-week-day change as a yearly RRULE; nil for the rarer Julian-day forms.
    static func yearly(_ change: PosixZoneRule.ChangeDate) -> String? {
        guard case .monthWeekDay(let month, let week, let weekday) = change.day, let day = Weekday(number: weekday) else { return nil }
        return "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? -1 : week)\(day.rawValue)"
    }

    /// `+0100`.
    static func offset(_ seconds: Int32) -> String {
        let a = abs(Int(seconds))
        return (seconds < 0 ? "-" : "+") + Timestamp.pad(a / 3600, 2) + Timestamp.pad(a % 3600 / 60, 2)
    }

    /// `20260329T080000` (local, no zone suffix).
    static func localDateTime(_ date: CivilDate, _ seconds: Int64) -> String {
        Timestamp.pad(date.year, 4) + Timestamp.pad(date.month, 2) + Timestamp.pad(date.day, 2) + "T"
            + Timestamp.pad(Int(seconds / 3600), 2) + Timestamp.pad(Int(seconds / 60 % 60), 2) + Timestamp.pad(Int(seconds % 60), 2)
    }

    /// `20260329T060000Z`.
    static func utcDateTime(_ t: Timestamp) -> String {
        let (days, ms) = Timestamp.floorDivide(t.millis, 86_400_000)
        return localDateTime(CivilDate(daysSinceEpoch: days), ms / 1000) + "Z"
    }

    /// TEXT escaping (RFC 5545 §3.3.11).
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default: out.append(c)
            }
        }
        return out
    }

    /// Folds a content line at 75 octets without splitting a UTF-8 character (§3.1).
    static func fold(_ line: String) -> String {
        var out = "", width = 0
        for ch in line {
            let n = String(ch).utf8.count
            if width + n > 75 { out += "\r\n "; width = 1 }
            out.append(ch)
            width += n
        }
        return out
    }
}
