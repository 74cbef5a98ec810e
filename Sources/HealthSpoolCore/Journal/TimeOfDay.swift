/// A local wall-clock time of day, to the minute (`08:00`).
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Parses `HH:MM` (or `H:MM`).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    /// Parses a comma-separated list (`08:00,20:00`; each time as `init(typed:)` reads it:
    /// `8am, 2000`), sorted and without repeats.
    public static func list(parsing text: String) throws(JournalError) -> [TimeOfDay] {
        var out: [TimeOfDay] = []
        for part in text.split(separator: ",") {
            let t = String(part).trimmingSpaces
            guard let time = TimeOfDay(typed: t) else {
                throw .invalid(field: "times", value: t, expected: "times of day as HH:MM, separated by commas (08:00,20:00)")
            }
            out.append(time)
        }
        guard !out.isEmpty else { throw .invalid(field: "times", value: text, expected: "at least one time of day (08:00)") }
        return Array(Set(out)).sorted()
    }

    /// Seconds after local midnight.
    public var seconds: Int64 { Int64(hour * 3600 + minute * 60) }

    /// `08:00`.
    public var description: String { Timestamp.pad(hour, 2) + ":" + Timestamp.pad(minute, 2) }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { (a.hour, a.minute) < (b.hour, b.minute) }
}
