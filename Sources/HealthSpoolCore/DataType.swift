/// The categories the data types are grouped into, as in the origin design's settings screen.
public enum DataCategory: String, CaseIterable, Sendable, Codable {
    case bodyMeasurements
    case activity
    case cardiovascular
    case sleep
    case nutrition
    case respiratory
    case symptoms
    case mentalWellbeing
    case journal
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
        case .symptoms: "Symptoms"
        case .mentalWellbeing: "Mental Wellbeing"
        case .journal: "Health Journal"
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
    /// Types kept local unless listed by name in `types.enabled` (positions are sensitive).
    public static let localOnly: Set<String> = Set(localOnlyReasons.keys)

    /// Why each local-only type stays on this computer, in one line (`healthspool types`, the
    /// settings page).
    public static let localOnlyReasons: [String: String] = [
        "location": "positions show where you live and go: sent only when enabled by name",
        "workoutRoute": "a route shows where you live and run: sent only when enabled by name",
        "clinicalRecord": "your providers' records are the most private data you have: sent only when enabled by name",
    ]

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
        // The location keep-alive log (gpsd): value latitude, metadata longitude and the fix.
        DataType("location", "HealthSpoolLocation", .other, "deg", .immediate, "Position from gpsd (value: latitude; local unless enabled by name)"),
        // A workout's route: value = points in this part, `points` in metadata (docs/formats.md).
        DataType("workoutRoute", "HKWorkoutRouteTypeIdentifier", .activity, "count", .immediate, "Workout route: GPS points, in parts of up to 500 (local unless enabled by name)"),
        DataType("activitySummary", "HKActivitySummaryTypeIdentifier", .activity, "kcal", .immediate, "Daily activity rings (value: active energy)"),
        // Cardiovascular
        DataType("heartRate", "HKQuantityTypeIdentifierHeartRate", .cardiovascular, "count/min", .immediate, "Heart rate"),
        DataType("restingHeartRate", "HKQuantityTypeIdentifierRestingHeartRate", .cardiovascular, "count/min", .immediate, "Resting heart rate"),
        DataType("walkingHeartRateAverage", "HKQuantityTypeIdentifierWalkingHeartRateAverage", .cardiovascular, "count/min", .immediate, "Walking heart rate average"),
        DataType("heartRateVariability", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", .cardiovascular, "ms", .immediate, "Heart rate variability (SDNN)"),
        DataType("bloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureSystolic", .cardiovascular, "mmHg", .immediate, "Blood pressure, systolic"),
        DataType("bloodPressureDiastolic", "HKQuantityTypeIdentifierBloodPressureDiastolic", .cardiovascular, "mmHg", .immediate, "Blood pressure, diastolic"),
        // An ECG recording: value = average heart rate, voltages and classification in metadata.
        DataType("electrocardiogram", "HKDataTypeIdentifierElectrocardiogram", .cardiovascular, "count/min", .immediate, "ECG recording (value: average heart rate; voltages in µV)"),
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
        // Symptoms (HealthKit symptom category types): value = severity as HealthKit numbers it
        // (0 unspecified, 1 not present, 2 mild, 3 moderate, 4 severe), or 1 for presence types.
        DataType("abdominalCramps", "HKCategoryTypeIdentifierAbdominalCramps", .symptoms, "count", .immediate, "Abdominal cramps"),
        DataType("acne", "HKCategoryTypeIdentifierAcne", .symptoms, "count", .immediate, "Acne"),
        DataType("appetiteChanges", "HKCategoryTypeIdentifierAppetiteChanges", .symptoms, "count", .immediate, "Appetite changes"),
        DataType("bladderIncontinence", "HKCategoryTypeIdentifierBladderIncontinence", .symptoms, "count", .immediate, "Bladder incontinence"),
        DataType("bloating", "HKCategoryTypeIdentifierBloating", .symptoms, "count", .immediate, "Bloating"),
        DataType("breastPain", "HKCategoryTypeIdentifierBreastPain", .symptoms, "count", .immediate, "Breast pain"),
        DataType("chestTightnessOrPain", "HKCategoryTypeIdentifierChestTightnessOrPain", .symptoms, "count", .immediate, "Chest tightness or pain"),
        DataType("chills", "HKCategoryTypeIdentifierChills", .symptoms, "count", .immediate, "Chills"),
        DataType("constipation", "HKCategoryTypeIdentifierConstipation", .symptoms, "count", .immediate, "Constipation"),
        DataType("coughing", "HKCategoryTypeIdentifierCoughing", .symptoms, "count", .immediate, "Coughing"),
        DataType("diarrhea", "HKCategoryTypeIdentifierDiarrhea", .symptoms, "count", .immediate, "Diarrhea"),
        DataType("dizziness", "HKCategoryTypeIdentifierDizziness", .symptoms, "count", .immediate, "Dizziness"),
        DataType("drySkin", "HKCategoryTypeIdentifierDrySkin", .symptoms, "count", .immediate, "Dry skin"),
        DataType("fainting", "HKCategoryTypeIdentifierFainting", .symptoms, "count", .immediate, "Fainting"),
        DataType("fatigue", "HKCategoryTypeIdentifierFatigue", .symptoms, "count", .immediate, "Fatigue"),
        DataType("fever", "HKCategoryTypeIdentifierFever", .symptoms, "count", .immediate, "Fever"),
        DataType("generalizedBodyAche", "HKCategoryTypeIdentifierGeneralizedBodyAche", .symptoms, "count", .immediate, "Body and muscle ache"),
        DataType("hairLoss", "HKCategoryTypeIdentifierHairLoss", .symptoms, "count", .immediate, "Hair loss"),
        DataType("headache", "HKCategoryTypeIdentifierHeadache", .symptoms, "count", .immediate, "Headache"),
        DataType("heartburn", "HKCategoryTypeIdentifierHeartburn", .symptoms, "count", .immediate, "Heartburn"),
        DataType("hotFlashes", "HKCategoryTypeIdentifierHotFlashes", .symptoms, "count", .immediate, "Hot flashes"),
        DataType("lossOfSmell", "HKCategoryTypeIdentifierLossOfSmell", .symptoms, "count", .immediate, "Loss of smell"),
        DataType("lossOfTaste", "HKCategoryTypeIdentifierLossOfTaste", .symptoms, "count", .immediate, "Loss of taste"),
        DataType("lowerBackPain", "HKCategoryTypeIdentifierLowerBackPain", .symptoms, "count", .immediate, "Lower back pain"),
        DataType("memoryLapse", "HKCategoryTypeIdentifierMemoryLapse", .symptoms, "count", .immediate, "Memory lapse"),
        DataType("moodChanges", "HKCategoryTypeIdentifierMoodChanges", .symptoms, "count", .immediate, "Mood changes"),
        DataType("nausea", "HKCategoryTypeIdentifierNausea", .symptoms, "count", .immediate, "Nausea"),
        DataType("nightSweats", "HKCategoryTypeIdentifierNightSweats", .symptoms, "count", .immediate, "Night sweats"),
        DataType("pelvicPain", "HKCategoryTypeIdentifierPelvicPain", .symptoms, "count", .immediate, "Pelvic pain"),
        DataType("rapidPoundingOrFlutteringHeartbeat", "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat", .symptoms, "count", .immediate, "Rapid, pounding or fluttering heartbeat"),
        DataType("runnyNose", "HKCategoryTypeIdentifierRunnyNose", .symptoms, "count", .immediate, "Runny nose"),
        DataType("shortnessOfBreath", "HKCategoryTypeIdentifierShortnessOfBreath", .symptoms, "count", .immediate, "Shortness of breath"),
        DataType("sinusCongestion", "HKCategoryTypeIdentifierSinusCongestion", .symptoms, "count", .immediate, "Sinus congestion"),
        DataType("skippedHeartbeat", "HKCategoryTypeIdentifierSkippedHeartbeat", .symptoms, "count", .immediate, "Skipped heartbeat"),
        DataType("sleepChanges", "HKCategoryTypeIdentifierSleepChanges", .symptoms, "count", .immediate, "Sleep changes"),
        DataType("soreThroat", "HKCategoryTypeIdentifierSoreThroat", .symptoms, "count", .immediate, "Sore throat"),
        DataType("vaginalDryness", "HKCategoryTypeIdentifierVaginalDryness", .symptoms, "count", .immediate, "Vaginal dryness"),
        DataType("vomiting", "HKCategoryTypeIdentifierVomiting", .symptoms, "count", .immediate, "Vomiting"),
        DataType("wheezing", "HKCategoryTypeIdentifierWheezing", .symptoms, "count", .immediate, "Wheezing"),
        // Mental wellbeing
        DataType("stateOfMind", "HKStateOfMindTypeIdentifier", .mentalWellbeing, "count", .immediate, "State of mind (value: valence, -1 to 1)"),
        // Health journal: entries and scores made by healthspool itself (no HealthKit type; the
        // identifier is healthspool's own and is not sent as `hkType`).
        DataType("symptomEntry", "healthspool.journal.symptomEntry", .journal, "severity", .immediate, "Journal: symptom entry (value: severity 1–4)"),
        DataType("symptomScore", "healthspool.journal.symptomScore", .journal, "score", .immediate, "Journal: daily symptom score per category or symptom"),
        DataType("lifestyleEntry", "healthspool.journal.lifestyleEntry", .journal, "count", .immediate, "Journal: lifestyle factor (value: amount, or level 0–3)"),
        // Other
        DataType("bloodGlucose", "HKQuantityTypeIdentifierBloodGlucose", .other, "mg/dL", .immediate, "Blood glucose"),
        DataType("bodyTemperature", "HKQuantityTypeIdentifierBodyTemperature", .other, "degC", .immediate, "Body temperature"),
        DataType("environmentalAudioExposure", "HKQuantityTypeIdentifierEnvironmentalAudioExposure", .other, "dBASPL", .immediate, "Hearing: environmental sound level"),
        DataType("headphoneAudioExposure", "HKQuantityTypeIdentifierHeadphoneAudioExposure", .other, "dBASPL", .immediate, "Hearing: headphone sound level"),
        DataType("mindfulMinutes", "HKCategoryTypeIdentifierMindfulSession", .other, "min", .immediate, "Mindful minutes"),
        // A provider's health record: the FHIR resource as it came, in metadata (docs/formats.md).
        DataType("clinicalRecord", "HKClinicalRecord", .other, "count", .hourly, "Health record from a provider: its FHIR resource, untouched (local unless enabled by name)"),
        // A hearing test: value = its points, the thresholds per ear in metadata.
        DataType("audiogram", "HKDataTypeIdentifierAudiogram", .other, "count", .immediate, "Hearing test (value: points; thresholds per ear in dBHL)"),
        // A glasses or contacts prescription: value 1 glasses, 2 contacts (HealthKit's numbering).
        DataType("visionPrescription", "HKVisionPrescriptionTypeIdentifier", .other, "count", .immediate, "Vision prescription (value: 1 glasses, 2 contacts; each eye in metadata)"),
        // Health Auto Export's medications: a dose taken (1) or skipped (0), revisable.
        DataType("medicationDose", "HKMedicationDoseEvent", .other, "count", .immediate, "Medication dose from iOS Medications (value: 1 taken, 0 skipped)"),
        DataType("cycleTracking", "HealthSpoolCycleTracking", .other, "count", .immediate, "Cycle tracking entry (value: menstrual flow 1–5 as HealthKit numbers it, else 1)"),
        DataType("heartRateNotification", "HealthSpoolHeartRateNotification", .cardiovascular, "count/min", .immediate, "Heart rate notification: high, low or irregular rhythm (value: the rate, if given)"),
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
