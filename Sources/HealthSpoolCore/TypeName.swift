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
}
