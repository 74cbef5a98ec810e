/// Categories for types outside the registry, and what a type name may look like.
///
/// Disabling a category must cover every type of that category, not only the registry's. A
/// name outside the registry (a HealthKit identifier such as
/// `HKQuantityTypeIdentifierDietaryBiotin`, or a Health Auto Export metric kept under its own
/// name such as `vitamin_b6`) gets its category from its *family*: the name without the
/// `HK…TypeIdentifier` prefix, lower-cased, without `_`, is matched against `familyRules` in
/// order, first match wins; a name no rule matches is `other`.
extension DataType {
    /// One family rule: a name stem that starts with, contains or equals a word.
    struct FamilyRule: Sendable {
        enum Match: Sendable { case prefix, contains, exact }
        let match: Match
        let words: [String]
        let category: DataCategory

        func matches(_ stem: String) -> Bool {
            switch match {
            case .prefix: words.contains { stem.hasPrefix($0) }
            case .contains: words.contains { stem.contains($0) }
            case .exact: words.contains(stem)
            }
        }
    }

    /// The family rules, in the order they are tried (documented in README.md, "Types and
    /// categories"). HealthKit names every nutrient `HKQuantityTypeIdentifierDietary…`; Health
    /// Auto Export names them without the prefix (`zinc`, `vitamin_a`), hence the nutrient words.
    static let familyRules: [FamilyRule] = [
        // The journal's own records (healthspool's names, never HealthKit's).
        FamilyRule(match: .exact, words: all.filter { $0.category == .journal }.flatMap { [familyStem($0.name), familyStem($0.hkIdentifier)] },
                   category: .journal),
        // HealthKit's symptom types are a closed set, all in the registry; they come first
        // because some contain another family's word (`sleepChanges`, `skippedHeartbeat`).
        FamilyRule(match: .exact, words: all.filter { $0.category == .symptoms }.map { familyStem($0.hkIdentifier) },
                   category: .symptoms),
        FamilyRule(match: .contains, words: ["stateofmind"], category: .mentalWellbeing),
        FamilyRule(match: .contains, words: ["sleep"], category: .sleep),
        FamilyRule(match: .prefix, words: ["dietary", "vitamin", "food"], category: .nutrition),
        FamilyRule(match: .exact, words: [
            "protein", "carbohydrates", "totalfat", "saturatedfat", "monounsaturatedfat", "polyunsaturatedfat",
            "cholesterol", "fiber", "sugar", "sodium", "potassium", "calcium", "iron", "magnesium", "zinc",
            "phosphorus", "iodine", "selenium", "copper", "manganese", "chromium", "molybdenum", "chloride",
            "biotin", "folate", "niacin", "riboflavin", "thiamin", "pantothenicacid", "caffeine", "water",
        ], category: .nutrition),
        FamilyRule(match: .contains, words: [
            "heart", "bloodpressure", "oxygensaturation", "perfusion", "atrialfibrillation", "electrocardiogram",
            "cardio", "bloodoxygen",
        ], category: .cardiovascular),
        FamilyRule(match: .contains, words: [
            "respiratory", "vo2max", "forcedvitalcapacity", "forcedexpiratory", "peakexpiratory", "inhaler", "breathing",
        ], category: .respiratory),
        FamilyRule(match: .contains, words: ["bodymass", "bodyfat", "leanbody", "waistcircumference", "height", "weight"],
                   category: .bodyMeasurements),
        FamilyRule(match: .contains, words: [
            "workout", "activitysummary", "distance", "step", "flightsclimbed", "energyburned", "exercise", "stand",
            "movetime", "pushcount", "swimming", "walking", "running", "cycling", "physicaleffort", "nikefuel",
            "stairascent", "stairdescent", "sixminutewalk", "activeenergy", "basalenergy", "restingenergy",
        ], category: .activity),
    ]

    /// The name a family rule reads: without `HK…TypeIdentifier` (or the kind alone, for
    /// `HKWorkoutTypeIdentifier`), lower-cased, without `_`.
    static func familyStem(_ key: String) -> String {
        var name = Substring(key)
        if isHealthKitIdentifier(key), let r = typeIdentifierRange(key) {
            // `HKWorkoutTypeIdentifier`: the kind is the name.
            name = r.upperBound == key.endIndex ? key[key.index(key.startIndex, offsetBy: 2)..<r.lowerBound] : key[r.upperBound...]
        }
        else if key.hasPrefix("HKCategoryValue") { name = name.dropFirst("HKCategoryValue".count) }
        return name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
    }

    /// The category of any type: the registry's when it knows the type, else its family's
    /// (`other` when no rule matches).
    public static func category(of key: String) -> DataCategory {
        if let t = lookup(key) { return t.category }
        let stem = familyStem(key)
        return familyRules.first { $0.matches(stem) }?.category ?? .other
    }

    /// Whether `key` is a syntactically valid HealthKit type identifier: `HK`, a kind in
    /// letters, `TypeIdentifier`, then letters and digits (`HKQuantityTypeIdentifierDietaryBiotin`,
    /// `HKWorkoutTypeIdentifier`, `HKDataTypeIdentifierHeartbeatSeries`).
    public static func isHealthKitIdentifier(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count >= 16, bytes.count <= 128, key.hasPrefix("HK"),
              let r = typeIdentifierRange(key) else { return false }
        let kind = key[key.index(key.startIndex, offsetBy: 2)..<r.lowerBound]
        let rest = key[r.upperBound...]
        func letters(_ s: Substring, digits: Bool) -> Bool {
            s.utf8.allSatisfy { (c: UInt8) in (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (digits && c >= 48 && c <= 57) }
        }
        guard letters(kind, digits: false), letters(rest, digits: true) else { return false }
        // The identifier part starts with a capital letter when there is one.
        if let first = rest.utf8.first, !(first >= 65 && first <= 90) { return false }
        return true
    }

    /// Where `TypeIdentifier` first occurs in `key`.
    static func typeIdentifierRange(_ key: String) -> Range<String.Index>? {
        let marker = "TypeIdentifier"
        var i = key.startIndex
        while i < key.endIndex {
            if key[i...].hasPrefix(marker) { return i..<key.index(i, offsetBy: marker.count) }
            i = key.index(after: i)
        }
        return nil
    }

    /// The registry name or category name closest to `key` (by edit distance, case ignored),
    /// for a "did you mean" hint; nil when nothing is close.
    public static func closestName(to key: String) -> String? {
        let candidates = all.map(\.name) + DataCategory.allCases.map(\.rawValue)
        let lower = key.lowercased()
        var best: (String, Int)?
        for c in candidates {
            let d = editDistance(lower, c.lowercased())
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (name, distance) = best, distance <= max(2, lower.count / 3) else { return nil }
        return name
    }

    /// Levenshtein distance between two strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = a[i - 1] == b[j - 1] ? previous : 1 + min(previous, row[j], row[j - 1])
                previous = current
            }
        }
        return row[b.count]
    }
}
