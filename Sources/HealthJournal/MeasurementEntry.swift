import HealthSpoolCore

/// A measurement as typed into a form: plain numbers only ("97%" and "6 2" are refused, never
/// read as 97 and 62), and each problem said in words a person uses, first what to do, for the
/// field it belongs to.
public enum MeasurementEntry {
    /// One problem with what was typed: the form field and what to say next to it.
    public struct Problem: Sendable, Equatable {
        public var field: String
        public var message: String
    }

    /// What a form's numbers became: a measurement to store, or what to say about them.
    public enum Outcome: Sendable {
        case measurement(ManualMeasurement)
        case problems([Problem])
    }

    /// The kinds a form can send (`kind`), their fields and words.
    struct Field {
        var name: String
        /// What the number is, after "Type …" and "for a …".
        var what: String
        var example: String
        var range: ClosedRange<Double>
        var unit: String
    }

    /// `text` as a number when it is only digits, with at most one decimal point or comma
    /// (`97`, `5.4`, `5,4`); spaces around it are allowed, nothing else.
    public static func plainNumber(_ text: String) -> Double? {
        let t = text.trimmingSpaces
        var digits = 0, separators = 0, afterSeparator = 0
        for c in t.unicodeScalars {
            switch c {
            case "0"..."9": digits += 1; if separators > 0 { afterSeparator += 1 }
            case ".", ",": separators += 1
            default: return nil
            }
        }
        guard digits > 0, separators <= 1, separators == 0 || afterSeparator > 0, digits <= 12 else { return nil }
        return Double(t.replacingComma)
    }

    /// The measurement `kind` (`bp`, `hr`, `spo2`, `glucose`, `weight`) from the typed `fields`, or the
    /// problems with them. Glucose is typed in `glucoseUnit`.
    public static func parse(kind: String, fields: [String: String], glucoseUnit: GlucoseUnit = .mmolPerL) -> Outcome {
        var problems: [Problem] = []
        func number(_ f: Field) -> Double? {
            let text = (fields[f.name] ?? "").trimmingSpaces
            guard !text.isEmpty else {
                problems.append(Problem(field: f.name, message: "Type \(f.what), for example \(f.example)."))
                return nil
            }
            guard let v = plainNumber(text) else {
                problems.append(Problem(field: f.name, message: "Type only the number, for example \(f.example)."))
                return nil
            }
            let low = SampleIdentity.canonicalNumber(f.range.lowerBound), high = SampleIdentity.canonicalNumber(f.range.upperBound)
            if v < f.range.lowerBound {
                problems.append(Problem(field: f.name, message: "\(v.readable) is too low for \(f.what): it is at least \(low) \(f.unit). Check the reading and type it again."))
                return nil
            }
            if v > f.range.upperBound {
                problems.append(Problem(field: f.name, message: "\(v.readable) is too high for \(f.what): it is at most \(high) \(f.unit). Check the reading and type it again."))
                return nil
            }
            return v
        }
        let m: ManualMeasurement?
        switch kind {
        case "bp":
            let s = number(Field(name: "systolic", what: "the top number", example: "128", range: MeasurementLimits.systolic, unit: "mmHg"))
            let d = number(Field(name: "diastolic", what: "the bottom number", example: "82", range: MeasurementLimits.diastolic, unit: "mmHg"))
            if let s, let d, s <= d {
                problems.append(Problem(field: "systolic", message: "The top number must be higher than the bottom number. Check the reading and type it again."))
            }
            m = s.flatMap { s in d.map { .bloodPressure(systolic: s, diastolic: $0) } }
        case "hr":
            m = number(Field(name: "value-hr", what: "your heart rate", example: "72", range: MeasurementLimits.heartRate, unit: "beats per minute")).map { .heartRate($0) }
        case "spo2":
            m = number(Field(name: "value-spo2", what: "your blood oxygen", example: "97", range: MeasurementLimits.oxygenSaturation, unit: "%")).map { .oxygenSaturation($0) }
        case "glucose":
            let mg = glucoseUnit == .mgPerDL
            m = number(Field(name: "value-glucose", what: "your blood sugar", example: mg ? "98" : "5.4",
                             range: mg ? MeasurementLimits.glucoseMgPerDL : MeasurementLimits.glucoseMmolPerL,
                             unit: glucoseUnit.rawValue)).map { .bloodGlucose($0, unit: glucoseUnit.rawValue) }
        case "weight":
            m = number(Field(name: "value-weight", what: "your weight", example: "72.5", range: MeasurementLimits.bodyMassKg, unit: "kg"))
                .map { .bodyMass($0, unit: "kg") }
        default:
            return .problems([Problem(field: "kind", message: "This kind of measurement is not known. Reload the page and try again.")])
        }
        if let m, problems.isEmpty { return .measurement(m) }
        return .problems(problems)
    }
}

extension String {
    fileprivate var replacingComma: String { String(map { $0 == "," ? "." : $0 }) }
}

extension Double {
    fileprivate var readable: String { SampleIdentity.canonicalNumber(self) }
}
