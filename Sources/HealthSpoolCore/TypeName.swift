/// What a type setting may name: a registry type, a category, or a HealthKit identifier.
public enum TypeName {
    /// Throws for a name that is none of these, with the closest valid name and what is allowed.
    public static func validate(_ name: String, key: String) throws(SettingsError) {
        if DataType.lookup(name) != nil || DataCategory.named(name) != nil || DataType.isHealthKitIdentifier(name) { return }
        throw SettingsError(key, problem(name))
    }

    /// Why `name` is not a type, with a hint.
    public static func problem(_ name: String) -> String {
        let hint = DataType.closestName(to: name).map { " (did you mean '\($0)'?)" } ?? ""
        let categories = DataCategory.allCases.map(\.rawValue).joined(separator: ", ")
        return "'\(name)' is not a type, category or HealthKit identifier\(hint); allowed: a type from 'healthspool types list', "
            + "a category (\(categories)), or a HealthKit identifier such as HKQuantityTypeIdentifierDietaryBiotin"
    }

    /// Whether a type name read from a file can be stored: it becomes a metric label, a log field
    /// and a word on a page, so it must look like a name and nothing else (issue 39). A registry
    /// name, a HealthKit identifier, or a name kept as a format gave it (`walking_heart_rate`,
    /// `bodyAndMuscleAche`): an ASCII letter, then letters, digits, `_`, `-` or `.`, at most 128
    /// bytes. `HKQuantityTypeIdentifier$(id>x)`, a space, a quote or a slash is not a name.
    public static func isStorable(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= 128, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 == 45 || $0 == 46 }
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
}
