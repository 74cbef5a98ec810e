/// Physiological ranges a manual measurement must fall in (R21–R28): a value outside is a typo
/// or a faulty reading, refused with the range instead of stored and synced.
public enum MeasurementLimits {
    public static let heartRate: ClosedRange<Double> = 20...300          // count/min
    public static let oxygenSaturation: ClosedRange<Double> = 50...100   // %
    public static let systolic: ClosedRange<Double> = 50...300           // mmHg
    public static let diastolic: ClosedRange<Double> = 20...200          // mmHg
    public static let glucoseMgPerDL: ClosedRange<Double> = 10...1000
    public static let glucoseMmolPerL: ClosedRange<Double> = 0.5...55
    public static let steps: ClosedRange<Double> = 1...100_000
    public static let bodyMassKg: ClosedRange<Double> = 2...500
    public static let bodyMassLb: ClosedRange<Double> = 4.5...1100
    /// The longest interval one manual step count may cover (seconds).
    public static let stepsSpan: Int64 = 86_400

    static func text(_ r: ClosedRange<Double>, _ unit: String) -> String {
        "\(SampleIdentity.canonicalNumber(r.lowerBound))–\(SampleIdentity.canonicalNumber(r.upperBound)) \(unit)"
    }

    /// Throws `outOfRange` unless `value` is finite and within `range`.
    static func check(_ what: String, _ value: Double, _ range: ClosedRange<Double>, _ unit: String) throws(JournalError) {
        guard value.isFinite, range.contains(value) else {
            throw .outOfRange(measurement: what, value: SampleIdentity.canonicalNumber(value) + " " + unit, range: text(range, unit))
        }
    }
}

/// A measurement typed in by the user, turned into samples of the right HealthKit type.
public enum ManualMeasurement: Hashable, Sendable {
    case heartRate(Double)
    case oxygenSaturation(Double)
    /// One reading: systolic over diastolic, mmHg.
    case bloodPressure(systolic: Double, diastolic: Double)
    /// Value in `unit` (`mg/dL` or `mmol/L`).
    case bloodGlucose(Double, unit: String)
    /// Steps counted between two instants.
    case steps(Double, from: Timestamp, to: Timestamp)
    /// Body weight in `unit` (`kg` or `lb`).
    case bodyMass(Double, unit: String)

    /// The source manual entries are stored under (part of their ids).
    public static let source = SampleSource(name: "healthspool", device: "manual entry")
    /// Metadata HealthKit gives a value the user typed in.
    public static let userEntered = ("HKWasUserEntered", "1")
    /// The correlation type a blood-pressure reading's two samples belong to.
    public static let bloodPressureCorrelation = "HKCorrelationTypeIdentifierBloodPressure"

    /// The samples for this measurement taken at `at` (steps: their own interval), after the
    /// range checks. Blood pressure gives two samples (systolic, diastolic) sharing
    /// `HKCorrelationType` and a `HKCorrelationID` derived from the reading, so they stay one
    /// reading wherever they go.
    public func samples(at: Timestamp) throws(JournalError) -> [Sample] {
        let meta = [Self.userEntered.0: Self.userEntered.1]
        func sample(_ type: String, _ value: Double, _ unit: String, end: Timestamp? = nil, extra: [String: String] = [:]) -> Sample {
            Sample(type: type, value: value, unit: unit, start: at, end: end, source: Self.source,
                   metadata: meta.merging(extra) { a, _ in a })
        }
        switch self {
        case .heartRate(let v):
            try MeasurementLimits.check("heart rate", v, MeasurementLimits.heartRate, "count/min")
            return [sample("heartRate", v, "count/min")]
        case .oxygenSaturation(let v):
            try MeasurementLimits.check("blood oxygen", v, MeasurementLimits.oxygenSaturation, "%")
            return [sample("oxygenSaturation", v, "%")]
        case .bloodPressure(let sys, let dia):
            try MeasurementLimits.check("systolic pressure", sys, MeasurementLimits.systolic, "mmHg")
            try MeasurementLimits.check("diastolic pressure", dia, MeasurementLimits.diastolic, "mmHg")
            guard sys > dia else {
                throw .outOfRange(measurement: "blood pressure", value: "\(SampleIdentity.canonicalNumber(sys))/\(SampleIdentity.canonicalNumber(dia)) mmHg",
                                  range: "systolic above diastolic (128/82)")
            }
            let correlation = SampleIdentity.id(type: Self.bloodPressureCorrelation, start: at.millis, end: at.millis,
                                                value: sys * 1000 + dia, unit: "mmHg", sourceName: Self.source.name)
            let extra = ["HKCorrelationType": Self.bloodPressureCorrelation, "HKCorrelationID": correlation.description]
            return [sample("bloodPressureSystolic", sys, "mmHg", extra: extra),
                    sample("bloodPressureDiastolic", dia, "mmHg", extra: extra)]
        case .bloodGlucose(let v, let unit):
            let u = UnitConversion.normalize(unit)
            switch u {
            case "mg/dL": try MeasurementLimits.check("blood glucose", v, MeasurementLimits.glucoseMgPerDL, "mg/dL")
            case "mmol/L": try MeasurementLimits.check("blood glucose", v, MeasurementLimits.glucoseMmolPerL, "mmol/L")
            default: throw .invalid(field: "glucose unit", value: unit, expected: "mg/dL or mmol/L")
            }
            let (value, canonical, original) = UnitConversion.toCanonical(v, unit: u, type: "bloodGlucose")
            var extra: [String: String] = [:]
            if let original { extra["originalUnit"] = original; extra["originalValue"] = SampleIdentity.canonicalNumber(v) }
            return [sample("bloodGlucose", value, canonical, extra: extra)]
        case .bodyMass(let v, let unit):
            let u = UnitConversion.normalize(unit)
            switch u {
            case "kg": try MeasurementLimits.check("weight", v, MeasurementLimits.bodyMassKg, "kg")
            case "lb": try MeasurementLimits.check("weight", v, MeasurementLimits.bodyMassLb, "lb")
            default: throw .invalid(field: "weight unit", value: unit, expected: "kg or lb")
            }
            let (value, canonical, original) = UnitConversion.toCanonical(v, unit: u, type: "bodyMass")
            var extra: [String: String] = [:]
            if let original { extra["originalUnit"] = original; extra["originalValue"] = SampleIdentity.canonicalNumber(v) }
            return [sample("bodyMass", value, canonical, extra: extra)]
        case .steps(let n, let from, let to):
            try MeasurementLimits.check("step count", n, MeasurementLimits.steps, "steps")
            guard n == n.rounded() else { throw .invalid(field: "steps", value: String(n), expected: "a whole number of steps") }
            guard from < to, to.millis - from.millis <= MeasurementLimits.stepsSpan * 1000 else {
                throw .invalid(field: "steps interval", value: from.iso8601Local + " – " + to.iso8601Local,
                               expected: "--from before --to, at most 24 hours apart")
            }
            return [Sample(type: "stepCount", value: n, unit: "count", start: from, end: to, source: Self.source, metadata: meta)]
        }
    }
}
