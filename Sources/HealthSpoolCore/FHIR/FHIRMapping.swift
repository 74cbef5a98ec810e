/// The one table of what a data type is called in FHIR R4: its code (LOINC where a standard code
/// exists, else healthspool's own code system), its UCUM unit and its Observation category. The
/// doctor's FHIR file (`healthspool report --fhir`) and the gateway's `fhir` formats both read it;
/// docs/formats.md prints it (`FHIRMappingDocTests` keeps the two the same).
public enum FHIRMapping {
    /// LOINC.
    public static let loinc = "http://loinc.org"
    /// UCUM.
    public static let ucum = "http://unitsofmeasure.org"
    /// healthspool's own codes for types that have no standard code: the registry name is the code.
    public static let dataTypeSystem = "urn:healthspool:fhir:data-type"
    /// FHIR's Observation categories.
    public static let categorySystem = "http://terminology.hl7.org/CodeSystem/observation-category"

    /// A type's FHIR form.
    public struct Concept: Sendable, Equatable {
        /// `loinc` or `dataTypeSystem`.
        public var system: String
        public var code: String
        public var display: String
        /// The UCUM code of the value in the store's unit (converted by `factor`).
        public var unit: String
        /// The stored value times this is the value in `unit`.
        public var factor: Double
        /// `vital-signs`, `activity`, `laboratory`, `survey` or `exam`.
        public var category: String

        public var isLOINC: Bool { system == FHIRMapping.loinc }
    }

    /// Types with a LOINC code. Vital signs follow the FHIR vital-signs profile's codes and units.
    static let standard: [(type: String, code: String, display: String, unit: String, category: String)] = [
        ("heartRate", "8867-4", "Heart rate", "/min", "vital-signs"),
        ("restingHeartRate", "40443-4", "Heart rate --resting", "/min", "vital-signs"),
        ("bloodPressureSystolic", "8480-6", "Systolic blood pressure", "mm[Hg]", "vital-signs"),
        ("bloodPressureDiastolic", "8462-4", "Diastolic blood pressure", "mm[Hg]", "vital-signs"),
        ("oxygenSaturation", "59408-5", "Oxygen saturation in Arterial blood by Pulse oximetry", "%", "vital-signs"),
        ("respiratoryRate", "9279-1", "Respiratory rate", "/min", "vital-signs"),
        ("bodyMass", "29463-7", "Body weight", "kg", "vital-signs"),
        ("height", "8302-2", "Body height", "cm", "vital-signs"),
        ("bodyMassIndex", "39156-5", "Body mass index (BMI) [Ratio]", "kg/m2", "vital-signs"),
        ("bodyTemperature", "8310-5", "Body temperature", "Cel", "vital-signs"),
        ("heartRateVariability", "80404-7", "R-R interval.standard deviation (Heart rate variability)", "ms", "vital-signs"),
        ("bodyFatPercentage", "41982-0", "Percentage of body fat Measured", "%", "exam"),
        ("waistCircumference", "8280-0", "Waist Circumference at umbilicus by Tape measure", "cm", "exam"),
        ("bloodGlucose", "2339-0", "Glucose [Mass/volume] in Blood", "mg/dL", "laboratory"),
        ("stepCount", "55423-8", "Number of steps in unspecified time Pedometer", "{steps}", "activity"),
        ("activeEnergyBurned", "41981-2", "Calories burned", "kcal", "activity"),
    ]

    /// The stored units' UCUM codes (a unit not listed goes out as text only).
    static let units: [String: (code: String, factor: Double)] = [
        "count/min": ("/min", 1), "mmHg": ("mm[Hg]", 1), "degC": ("Cel", 1), "%": ("%", 1), "kg": ("kg", 1),
        "cm": ("cm", 1), "km": ("km", 1), "kcal": ("kcal", 1), "ms": ("ms", 1), "min": ("min", 1), "g": ("g", 1),
        "mg": ("mg", 1), "mcg": ("ug", 1), "mL": ("mL", 1), "mL/(kg*min)": ("mL/(kg.min)", 1), "mg/dL": ("mg/dL", 1),
        "mmol/L": ("mmol/L", 1), "count": ("1", 1), "deg": ("deg", 1), "dBASPL": ("dB[SPL]", 1), "h": ("h", 1),
        "severity": ("{severity}", 1), "score": ("{score}", 1), "level": ("{level}", 1),
    ]

    /// Figures of a day that have their own codes: steps per day, sleep per night.
    public static let stepsPerDay = Concept(system: loinc, code: "41950-7", display: "Number of steps in 24 hour Measured",
                                            unit: "{steps}", factor: 1, category: "activity")
    public static let sleepPerNight = Concept(system: loinc, code: "93832-4", display: "Sleep duration", unit: "h",
                                              factor: 1.0 / 60, category: "activity")
    public static let inBedPerNight = Concept(system: dataTypeSystem, code: "timeInBed", display: "Time in bed", unit: "h",
                                              factor: 1.0 / 60, category: "activity")
    /// Blood pressure as the vital-signs profile's panel (systolic and diastolic as components).
    public static let bloodPressurePanel = Concept(system: loinc, code: "85354-9", display: "Blood pressure panel with all children optional",
                                                   unit: "mm[Hg]", factor: 1, category: "vital-signs")
    /// Blood glucose in mmol/L (the person's choice, `journal.glucose_unit`).
    public static let glucoseMolar = Concept(system: loinc, code: "15074-8", display: "Glucose [Moles/volume] in Blood",
                                             unit: "mmol/L", factor: 1 / 18.0182, category: "laboratory")

    private static let byType: [String: Concept] = Dictionary(uniqueKeysWithValues: standard.map {
        ($0.type, Concept(system: loinc, code: $0.code, display: $0.display, unit: $0.unit, factor: 1, category: $0.category))
    })

    /// `type`'s concept: its LOINC code, or healthspool's code (the registry name, or the identifier
    /// of a type outside the registry) with the stored unit's UCUM code.
    public static func concept(for type: String, unit storedUnit: String? = nil) -> Concept {
        if let c = byType[type] { return c }
        let known = DataType.lookup(type)
        let unit = storedUnit ?? known?.unit ?? ""
        let ucum = units[unit]
        let category: String = switch known?.category {
        case .activity?, .sleep?: "activity"
        case .cardiovascular?, .respiratory?, .bodyMeasurements?: "exam"
        default: "survey"
        }
        return Concept(system: dataTypeSystem, code: known?.name ?? type, display: known?.summary ?? type,
                       unit: ucum?.code ?? unit, factor: ucum?.factor ?? 1, category: category)
    }

    /// The UCUM code of a stored unit, nil when it has none.
    public static func ucumCode(_ storedUnit: String) -> String? { units[storedUnit]?.code }

    /// Every registry type's concept, in the registry's order: the table docs/formats.md prints.
    public static var table: [(type: String, concept: Concept)] {
        DataType.all.map { ($0.name, concept(for: $0.name)) }
    }

    /// The table as Markdown rows (`| type | system | code | display | unit | category |`).
    public static var markdown: String {
        var out = "| type | code system | code | display | UCUM unit | category |\n|---|---|---|---|---|---|\n"
        for (type, c) in table {
            let system = c.isLOINC ? "LOINC" : "healthspool"
            out += "| `\(type)` | \(system) | `\(c.code)` | \(c.display) | `\(c.unit)` | \(c.category) |\n"
        }
        for (name, c) in [("steps per day", stepsPerDay), ("sleep per night", sleepPerNight), ("time in bed per night", inBedPerNight),
                          ("blood pressure panel", bloodPressurePanel), ("blood glucose in mmol/L", glucoseMolar)] {
            out += "| \(name) | \(c.isLOINC ? "LOINC" : "healthspool") | `\(c.code)` | \(c.display) | `\(c.unit)` | \(c.category) |\n"
        }
        return out
    }
}
