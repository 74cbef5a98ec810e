import HealthSpoolCore

/// Health Auto Export's metric names (`step_count`, CSV header `Step Count (count)`) and the
/// registry types they map to.
enum AutoExportNames {
    /// HAE metric name → registry type name. Names outside this table keep their own name as
    /// the type (see `type(for:)`).
    static let types: [String: String] = [
        // Activity
        "step_count": "stepCount",
        "walking_running_distance": "distanceWalkingRunning",
        "distance_walking_running": "distanceWalkingRunning",
        "cycling_distance": "distanceCycling",
        "distance_cycling": "distanceCycling",
        "flights_climbed": "flightsClimbed",
        "active_energy": "activeEnergyBurned",
        "active_energy_burned": "activeEnergyBurned",
        "basal_energy_burned": "basalEnergyBurned",
        "basal_energy": "basalEnergyBurned",
        "resting_energy": "basalEnergyBurned",
        "apple_exercise_time": "exerciseTime",
        "apple_stand_hour": "standHours",
        "apple_stand_time": "standTime",
        // Cardiovascular
        "heart_rate": "heartRate",
        "resting_heart_rate": "restingHeartRate",
        "walking_heart_rate_average": "walkingHeartRateAverage",
        "heart_rate_variability": "heartRateVariability",
        "blood_oxygen_saturation": "oxygenSaturation",
        "oxygen_saturation": "oxygenSaturation",
        // Body measurements
        "weight_body_mass": "bodyMass",
        "body_mass": "bodyMass",
        "weight": "bodyMass",
        "body_mass_index": "bodyMassIndex",
        "body_fat_percentage": "bodyFatPercentage",
        "lean_body_mass": "leanBodyMass",
        "height": "height",
        "waist_circumference": "waistCircumference",
        // Nutrition
        "dietary_water": "dietaryWater",
        "water": "dietaryWater",
        "dietary_energy": "dietaryEnergy",
        "protein": "dietaryProtein",
        "carbohydrates": "dietaryCarbohydrates",
        "total_fat": "dietaryFat",
        "fiber": "dietaryFiber",
        "dietary_sugar": "dietarySugar",
        "sugar": "dietarySugar",
        "sodium": "dietarySodium",
        "potassium": "dietaryPotassium",
        "calcium": "dietaryCalcium",
        "iron": "dietaryIron",
        "vitamin_c": "dietaryVitaminC",
        "vitamin_d": "dietaryVitaminD",
        "caffeine": "dietaryCaffeine",
        "dietary_caffeine": "dietaryCaffeine",
        // Respiratory
        "respiratory_rate": "respiratoryRate",
        "vo2_max": "vo2Max",
        // Other
        "blood_glucose": "bloodGlucose",
        "body_temperature": "bodyTemperature",
        "environmental_audio_exposure": "environmentalAudioExposure",
        "headphone_audio_exposure": "headphoneAudioExposure",
        "mindful_minutes": "mindfulMinutes",
        // Sleep (also handled specially)
        "sleep_analysis": "sleepAnalysis",
    ]

    /// The type a metric is stored under: the registry name when HAE's name (or a registry
    /// name / HealthKit identifier) is known, else the metric name itself.
    static func type(for metric: String) -> String {
        if let t = types[metric] { return t }
        let snake = snakeCase(metric)
        if let t = types[snake] { return t }
        return DataType.lookup(metric)?.name ?? metric
    }

    /// `Walking + Running Distance` → `walking_running_distance`, `Weight & Body Mass` →
    /// `weight_body_mass`, `VO2 Max` → `vo2_max`.
    static func snakeCase(_ text: String) -> String {
        var out = ""
        var pendingUnderscore = false
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber {
                if pendingUnderscore, !out.isEmpty { out.append("_") }
                pendingUnderscore = false
                out.append(ch)
            } else {
                pendingUnderscore = true
            }
        }
        return out
    }

    /// A sleep stage as HAE writes it (`Core`, `REM`, `In Bed`, `Asleep (Unspecified)`) →
    /// the `sleepStage` metadata value (`core`, `rem`, `inBed`, `asleep`).
    static func sleepStage(_ text: String) -> String {
        let s = snakeCase(text)
        switch s {
        case "core", "asleep_core": return "core"
        case "deep", "asleep_deep": return "deep"
        case "rem", "asleep_rem": return "rem"
        case "awake": return "awake"
        case "in_bed", "inbed": return "inBed"
        case "asleep", "unspecified", "asleep_unspecified": return "asleep"
        default: return s.isEmpty ? "asleep" : s
        }
    }
}
