import HealthSpoolCore
import HealthSpoolLinux

/// Plain words for what the store holds: type names without HealthKit identifiers, times as
/// "Sunday 29 March 2026, 08:00" where a person reads them, or "08:00" within a day.
enum Format {
    /// "heartRate" → "Heart rate"; an unknown identifier loses its HealthKit prefix.
    static func typeName(_ name: String) -> String {
        if let said = plainNames[name] { return said }
        var base = DataType.lookup(name)?.name ?? name
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier", "HKDataType", "HK"] where base.hasPrefix(prefix) {
            base = String(base.dropFirst(prefix.count))
            break
        }
        var out = ""
        for (i, c) in base.enumerated() {
            if c.isUppercase, i > 0 { out += " " + c.lowercased() } else { out.append(i == 0 ? Character(c.uppercased()) : c) }
        }
        return out
    }

    /// Names said otherwise than their identifier spells them (issue 40: "Vo2 max", "Symptom entry").
    static let plainNames = ["vo2Max": "VO₂ max (fitness: how much oxygen your body can use)", "symptomEntry": "Symptoms you log",
                             "symptomScore": "Your daily symptom scores", "lifestyleEntry": "Lifestyle entries you log"]

    /// Symptom words a child may not know, in plain words (lower-cased name → gloss).
    static let symptomGloss = ["nausea": "feeling sick", "dizziness": "feeling wobbly or the room spinning",
                               "shortness of breath": "hard to get your breath"]

    /// A symptom group's name as shown: the group of symptoms logged without one is said as such.
    static func groupName(_ name: String) -> String {
        name == SymptomEntry.defaultCategory ? "No group chosen" : name
    }

    /// An RFC 3339 time as a person says it: "Thursday 26 November 2026, 17:09".
    static func spoken(_ iso: String) -> String {
        guard let t = TimestampParser.parse(iso) else { return iso }
        return spoken(t)
    }

    static func spoken(_ t: Timestamp) -> String {
        let s = local(t)
        guard let date = CivilDate(parsing: String(s.prefix(10))) else { return s }
        return DayStrip.long(date) + ", " + s.suffix(5)
    }

    /// "2026-03-29 08:00", local time (the minute of a time shown within its day is its suffix).
    static func local(_ t: Timestamp) -> String {
        let s = Timestamp(millis: t.millis, utcOffsetSeconds: DaemonClock.now().utcOffsetSeconds).iso8601Local
        return String(s.prefix(16).map { $0 == "T" ? " " : $0 })
    }
}

/// Whether a path exists (without the store's opening side effects).
enum FileSystemCheck {
    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }
}
