/// The categories the data types are grouped into, as in the origin design's settings screen.
public enum DataCategory: String, CaseIterable, Sendable, Codable {
    case bodyMeasurements
    case activity
    case cardiovascular
    case sleep
    case nutrition
    case respiratory
    case other

    /// The name shown to people.
    public var displayName: String {
        switch self {
        case .bodyMeasurements: "Body Measurements"
        case .activity: "Activity"
        case .cardiovascular: "Cardiovascular"
        case .sleep: "Sleep"
        case .nutrition: "Nutrition"
        case .respiratory: "Respiratory"
        case .other: "Other"
        }
    }

    /// The types in this category, in registry order.
    public var dataTypes: [DataType] { DataType.all.filter { $0.category == self } }
}

/// How soon a type's new samples should trigger a sync (HealthKit's background delivery frequency).
public enum DeliveryFrequency: String, CaseIterable, Sendable, Codable {
    case immediate
    case hourly
}

/// One health data type: its registry name, HealthKit identifier, category, canonical unit and
/// default delivery frequency.
public struct DataType: Hashable, Sendable {
    /// Registry name, as used on the command line, in config files and in payloads (`stepCount`).
    public let name: String
    /// HealthKit identifier (`HKQuantityTypeIdentifierStepCount`).
    public let hkIdentifier: String
    /// Category this type belongs to.
    public let category: DataCategory
    /// Unit every stored value of this type is expressed in.
    public let unit: String
    /// Delivery frequency unless configured otherwise.
    public let defaultFrequency: DeliveryFrequency
    /// A short description for `healthspool types`.
    public let summary: String

    init(_ name: String, _ hk: String, _ category: DataCategory, _ unit: String,
         _ frequency: DeliveryFrequency = .immediate, _ summary: String) {
        self.name = name
        self.hkIdentifier = hk
        self.category = category
        self.unit = unit
        self.defaultFrequency = frequency
        self.summary = summary
    }
}

extension DataType {
    /// Every type of the origin design, grouped by category.
    public static let all: [DataType] = [
        // Body measurements
        DataType("height", "HKQuantityTypeIdentifierHeight", .bodyMeasurements, "cm", .immediate, "Height"),
        DataType("bodyMass", "HKQuantityTypeIdentifierBodyMass", .bodyMeasurements, "kg", .hourly, "Weight"),
        DataType("bodyMassIndex", "HKQuantityTypeIdentifierBodyMassIndex", .bodyMeasurements, "count", .hourly, "Body mass index"),
        DataType("bodyFatPercentage", "HKQuantityTypeIdentifierBodyFatPercentage", .bodyMeasurements, "%", .hourly, "Body fat percentage (0–100)"),
        DataType("leanBodyMass", "HKQuantityTypeIdentifierLeanBodyMass", .bodyMeasurements, "kg", .hourly, "Lean body mass"),
        DataType("waistCircumference", "HKQuantityTypeIdentifierWaistCircumference", .bodyMeasurements, "cm", .immediate, "Waist circumference"),
        // Activity
        DataType("stepCount", "HKQuantityTypeIdentifierStepCount", .activity, "count", .hourly, "Steps"),
        DataType("distanceWalkingRunning", "HKQuantityTypeIdentifierDistanceWalkingRunning", .activity, "km", .immediate, "Walking + running distance"),
        DataType("distanceCycling", "HKQuantityTypeIdentifierDistanceCycling", .activity, "km", .immediate, "Cycling distance"),
        DataType("flightsClimbed", "HKQuantityTypeIdentifierFlightsClimbed", .activity, "count", .immediate, "Flights climbed"),
        DataType("activeEnergyBurned", "HKQuantityTypeIdentifierActiveEnergyBurned", .activity, "kcal", .immediate, "Active energy"),
        DataType("basalEnergyBurned", "HKQuantityTypeIdentifierBasalEnergyBurned", .activity, "kcal", .immediate, "Resting (basal) energy"),
        DataType("exerciseTime", "HKQuantityTypeIdentifierAppleExerciseTime", .activity, "min", .immediate, "Exercise minutes"),
        DataType("standHours", "HKCategoryTypeIdentifierAppleStandHour", .activity, "count", .immediate, "Stand hours"),
        DataType("standTime", "HKQuantityTypeIdentifierAppleStandTime", .activity, "min", .immediate, "Stand minutes"),
        DataType("workout", "HKWorkoutTypeIdentifier", .activity, "min", .immediate, "Workouts (value: duration)"),
        DataType("activitySummary", "HKActivitySummaryTypeIdentifier", .activity, "kcal", .immediate, "Daily activity rings (value: active energy)"),
        // Cardiovascular
        DataType("heartRate", "HKQuantityTypeIdentifierHeartRate", .cardiovascular, "count/min", .immediate, "Heart rate"),
        DataType("restingHeartRate", "HKQuantityTypeIdentifierRestingHeartRate", .cardiovascular, "count/min", .immediate, "Resting heart rate"),
        DataType("walkingHeartRateAverage", "HKQuantityTypeIdentifierWalkingHeartRateAverage", .cardiovascular, "count/min", .immediate, "Walking heart rate average"),
        DataType("heartRateVariability", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", .cardiovascular, "ms", .immediate, "Heart rate variability (SDNN)"),
        DataType("bloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureSystolic", .cardiovascular, "mmHg", .immediate, "Blood pressure, systolic"),
        DataType("bloodPressureDiastolic", "HKQuantityTypeIdentifierBloodPressureDiastolic", .cardiovascular, "mmHg", .immediate, "Blood pressure, diastolic"),
        DataType("oxygenSaturation", "HKQuantityTypeIdentifierOxygenSaturation", .cardiovascular, "%", .immediate, "Blood oxygen (0–100)"),
        // Sleep
        DataType("sleepAnalysis", "HKCategoryTypeIdentifierSleepAnalysis", .sleep, "min", .immediate, "Sleep stages (value: minutes asleep or awake)"),
        DataType("timeInBed", "HKCategoryValueSleepAnalysisInBed", .sleep, "min", .immediate, "Time in bed"),
        // Nutrition
        DataType("dietaryEnergy", "HKQuantityTypeIdentifierDietaryEnergyConsumed", .nutrition, "kcal", .immediate, "Dietary energy"),
        DataType("dietaryProtein", "HKQuantityTypeIdentifierDietaryProtein", .nutrition, "g", .immediate, "Protein"),
        DataType("dietaryCarbohydrates", "HKQuantityTypeIdentifierDietaryCarbohydrates", .nutrition, "g", .immediate, "Carbohydrates"),
        DataType("dietaryFat", "HKQuantityTypeIdentifierDietaryFatTotal", .nutrition, "g", .immediate, "Total fat"),
        DataType("dietarySugar", "HKQuantityTypeIdentifierDietarySugar", .nutrition, "g", .immediate, "Sugar"),
        DataType("dietaryFiber", "HKQuantityTypeIdentifierDietaryFiber", .nutrition, "g", .immediate, "Fiber"),
        DataType("dietarySodium", "HKQuantityTypeIdentifierDietarySodium", .nutrition, "mg", .immediate, "Sodium"),
        DataType("dietaryPotassium", "HKQuantityTypeIdentifierDietaryPotassium", .nutrition, "mg", .immediate, "Potassium"),
        DataType("dietaryCalcium", "HKQuantityTypeIdentifierDietaryCalcium", .nutrition, "mg", .immediate, "Calcium"),
        DataType("dietaryIron", "HKQuantityTypeIdentifierDietaryIron", .nutrition, "mg", .immediate, "Iron"),
        DataType("dietaryVitaminC", "HKQuantityTypeIdentifierDietaryVitaminC", .nutrition, "mg", .immediate, "Vitamin C"),
        DataType("dietaryVitaminD", "HKQuantityTypeIdentifierDietaryVitaminD", .nutrition, "mcg", .immediate, "Vitamin D"),
        DataType("dietaryCaffeine", "HKQuantityTypeIdentifierDietaryCaffeine", .nutrition, "mg", .immediate, "Caffeine"),
        DataType("dietaryWater", "HKQuantityTypeIdentifierDietaryWater", .nutrition, "mL", .immediate, "Water"),
        // Respiratory
        DataType("respiratoryRate", "HKQuantityTypeIdentifierRespiratoryRate", .respiratory, "count/min", .immediate, "Respiratory rate"),
        DataType("vo2Max", "HKQuantityTypeIdentifierVO2Max", .respiratory, "mL/(kg*min)", .immediate, "VO2 max"),
        // Other
        DataType("bloodGlucose", "HKQuantityTypeIdentifierBloodGlucose", .other, "mg/dL", .immediate, "Blood glucose"),
        DataType("bodyTemperature", "HKQuantityTypeIdentifierBodyTemperature", .other, "degC", .immediate, "Body temperature"),
        DataType("environmentalAudioExposure", "HKQuantityTypeIdentifierEnvironmentalAudioExposure", .other, "dBASPL", .immediate, "Hearing: environmental sound level"),
        DataType("headphoneAudioExposure", "HKQuantityTypeIdentifierHeadphoneAudioExposure", .other, "dBASPL", .immediate, "Hearing: headphone sound level"),
        DataType("mindfulMinutes", "HKCategoryTypeIdentifierMindfulSession", .other, "min", .immediate, "Mindful minutes"),
    ]

    private static let byName: [String: DataType] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    private static let byLowerName: [String: DataType] = Dictionary(uniqueKeysWithValues: all.map { ($0.name.lowercased(), $0) })
    private static let byIdentifier: [String: DataType] = Dictionary(uniqueKeysWithValues: all.map { ($0.hkIdentifier, $0) })

    /// Looks a type up by registry name (case-insensitive) or HealthKit identifier.
    public static func lookup(_ key: String) -> DataType? {
        byName[key] ?? byIdentifier[key] ?? byLowerName[key.lowercased()]
    }

    /// The registry name for a key, or the key itself when the registry does not know it
    /// (types outside the registry are kept under their HealthKit identifier, not dropped).
    public static func canonicalName(_ key: String) -> String {
        lookup(key)?.name ?? key
    }
}
