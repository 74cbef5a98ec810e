/// A POSIX `TZ` rule (`CET-1CEST,M3.5.0,M10.5.0/3`), as a TZif file's footer carries it: the
/// offsets after the file's last listed transition.
public struct PosixZoneRule: Hashable, Sendable {
    /// Standard offset from UTC, seconds east.
    public var standardOffset: Int32
    /// Daylight-saving offset and the local times it starts and ends, when the zone has one.
    public var daylight: Daylight?

    /// Daylight saving time: its offset and the two change dates.
    public struct Daylight: Hashable, Sendable {
        public var offset: Int32
        public var start: ChangeDate
        public var end: ChangeDate
    }

    /// When a change happens: a date rule and the local time of day (seconds, may exceed a day).
    public struct ChangeDate: Hashable, Sendable {
        public enum Day: Hashable, Sendable {
            /// Month, week 1–5 (5 = last), weekday 0 = Sunday.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
            /// Julian day 1–365, February 29 never counted.
            case julianNoLeap(Int)
            /// Zero-based day of the year, February 29 counted.
            case zeroBased(Int)
        }
        public var day: Day
        public var time: Int64

        /// The local date this change falls on in `year`.
        public func date(in year: Int) -> CivilDate {
            let jan1 = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
            switch day {
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                var d = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
                while d > first.daysInMonth { d -= 7 }
                return CivilDate(year: year, month: month, day: d)
            case .julianNoLeap(let n):
                let leap = CivilDate(year: year, month: 2, day: 1).daysInMonth == 29
                return CivilDate(daysSinceEpoch: jan1 + Int64(n - 1) + (leap && n >= 60 ? 1 : 0))
            case .zeroBased(let n):
                return CivilDate(daysSinceEpoch: jan1 + Int64(n))
            }
        }
    }

    public init(standardOffset: Int32, daylight: Daylight? = nil) {
        self.standardOffset = standardOffset
        self.daylight = daylight
    }

    /// The offset in effect at `utc` seconds since the epoch.
    public func offset(atUTCSeconds utc: Int64) -> Int32 {
        guard let dst = daylight else { return standardOffset }
        let year = Timestamp(seconds: utc + Int64(standardOffset)).localDate.year
        let start = dst.start.date(in: year).daysSinceEpoch * 86_400 + dst.start.time - Int64(standardOffset)
        let end = dst.end.date(in: year).daysSinceEpoch * 86_400 + dst.end.time - Int64(dst.offset)
        let inDaylight = start < end ? (utc >= start && utc < end) : (utc < end || utc >= start)
        return inDaylight ? dst.offset : standardOffset
    }

    /// Parses a POSIX TZ string; nil when it is not one.
    public init?(parsing text: String) {
        var s = Substring(text)
        func name() -> Bool {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { return false }
                s = s[s.index(after: close)...]
                return true
            }
            let letters = s.prefix { $0.isLetter }
            guard letters.count >= 3 else { return false }
            s = s.dropFirst(letters.count)
            return true
        }
        /// `[+-]hh[:mm[:ss]]` in seconds.
        func clock() -> Int64? {
            var sign: Int64 = 1
            if s.first == "+" { s = s.dropFirst() } else if s.first == "-" { sign = -1; s = s.dropFirst() }
            var parts: [Int64] = []
            while parts.count < 3 {
                let digits = s.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, let v = Int64(digits) else { return nil }
                parts.append(v)
                s = s.dropFirst(digits.count)
                guard s.first == ":" else { break }
                s = s.dropFirst()
            }
            while parts.count < 3 { parts.append(0) }
            return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])
        }
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        func change() -> ChangeDate? {
            let day: ChangeDate.Day
            if s.first == "M" {
                s = s.dropFirst()
                guard let m = number(), s.first == ".", (1...12).contains(m) else { return nil }
                s = s.dropFirst()
                guard let w = number(), s.first == ".", (1...5).contains(w) else { return nil }
                s = s.dropFirst()
                guard let d = number(), (0...6).contains(d) else { return nil }
                day = .monthWeekDay(month: m, week: w, weekday: d)
            } else if s.first == "J" {
                s = s.dropFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julianNoLeap(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time: Int64 = 7200
            if s.first == "/" {
                s = s.dropFirst()
                guard let t = clock() else { return nil }
                time = t
            }
            return ChangeDate(day: day, time: time)
        }
        guard name(), let std = clock() else { return nil }
        standardOffset = Int32(-std)   // POSIX counts west as positive
        if s.isEmpty { daylight = nil; return }
        guard name() else { return nil }
        var dstOffset = -std + 3600
        if let first = s.first, first != "," {
            guard let o = clock() else { return nil }
            dstOffset = -o
        }
        // Without dates POSIX leaves the rule to the implementation; the US rule is the usual default.
        var start = ChangeDate(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
        var end = ChangeDate(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        if s.first == "," {
            s = s.dropFirst()
            guard let a = change(), s.first == "," else { return nil }
            s = s.dropFirst()
            guard let b = change() else { return nil }
            start = a
            end = b
        }
        guard s.isEmpty else { return nil }
        daylight = Daylight(offset: Int32(dstOffset), start: start, end: end)
    }
}
