import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux

/// Runs a journal command (symptom, lifestyle, journal, med, remind, goal, note, measure, day,
/// calendar, rebuild-rollups, report) through the daemon module's `JournalRunner`, with or without a
/// running daemon: the store opened once, what it queues announced to a running daemon; its
/// refusals become one-line CLI errors (exit status 1).
func withJournal<T>(_ common: CommonOptions, _ body: (JournalRunner) throws -> T) throws -> T {
    let configuration = try common.configuration()
    do { return try JournalRunner.run(configuration: configuration, body) } catch let refusal as JournalRunner.Refusal {
        throw CLIError(refusal.description)
    }
}

/// Prints a JSON value on one line.
func printJSON(_ v: JSONValue) {
    var w = JSONWriter()
    w.value(v)
    print(w.text)
}

/// What the journal commands share: reading dates and times, and showing entries.
enum JournalCLI {
    /// A date: `YYYY-MM-DD`, `today` or `yesterday`.
    static func date(_ text: String, today: CivilDate) throws -> CivilDate {
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return CivilDate(daysSinceEpoch: today.daysSinceEpoch - 1)
        default:
            guard let d = CivilDate(parsing: text) else {
                throw ValidationError("'\(text)' is not a date: write YYYY-MM-DD (2026-11-22), today or yesterday")
            }
            return d
        }
    }

    /// A time: `YYYY-MM-DDTHH:MM[:SS]` (or with a space), optionally with `Z` or `±HH:MM`, or
    /// `HH:MM` for today. Without an offset it is local time in the machine's zone.
    static func time(_ text: String, today: CivilDate, zone: some OffsetRules = SystemTimeZone()) throws -> Timestamp {
        let bad = ValidationError("'\(text)' is not a time: write 2026-11-22T19:30 (local time), 2026-11-22T19:30+01:00, or 19:30 for today")
        var rest = Substring(text.trimmingSpaces)
        var day = today
        if rest.count >= 10, let d = CivilDate(parsing: String(rest.prefix(10))) {
            day = d
            rest = rest.dropFirst(10)
            guard let sep = rest.first, sep == "T" || sep == " " || sep == "t" else {
                if rest.isEmpty { throw ValidationError("'\(text)' has no time of day: add it, e.g. \(text)T19:30") }
                throw bad
            }
            rest = rest.dropFirst()
        }
        var offset: Int32?
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            offset = 0
            rest = rest.dropLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let parts = rest[rest.index(after: sign)...].split(separator: ":")
            guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), h <= 14, m < 60 else { throw bad }
            offset = Int32((h * 3600 + m * 60) * (rest[sign] == "-" ? -1 : 1))
            rest = rest[..<sign]
        }
        let fields = rest.split(separator: ":").map { Int($0) }
        guard (2...3).contains(fields.count), fields.allSatisfy({ $0 != nil }) else { throw bad }
        let h = fields[0]!, m = fields[1]!, s = fields.count == 3 ? fields[2]! : 0
        guard (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s) else { throw bad }
        if let offset {
            let local = day.daysSinceEpoch * 86_400_000 + Int64(h * 3600 + m * 60 + s) * 1000
            return Timestamp(millis: local - Int64(offset) * 1000, utcOffsetSeconds: offset)
        }
        return LocalDay.timestamp(day, hour: h, minute: m, second: s, in: zone)
    }

    static func severity(_ text: String) throws -> Severity {
        guard let s = Severity(parsing: text) else {
            throw ValidationError("'\(text)' is not a severity: choose mild (1), moderate (2), severe (3) or debilitating (4)")
        }
        return s
    }

    static func timeOfDay(_ text: String) throws -> PartOfDay {
        guard let t = PartOfDay(parsing: text) else {
            throw ValidationError("'\(text)' is not a time of day: choose morning, afternoon, evening or night")
        }
        return t
    }

    /// A comma-separated or repeated list of names, trimmed, empty ones dropped.
    static func names(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }
}
