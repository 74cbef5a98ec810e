import HealthSpoolCore

/// What the parser needs to know about one `Record` type (resolved once per distinct type).
final class AppleHealthRecordKind {
    /// How the record's `value` attribute becomes a sample value.
    enum Flavor {
        /// A number in a unit.
        case quantity
        /// Sleep analysis: duration in minutes, stage in metadata.
        case sleep
        /// Mindful session: duration in minutes.
        case mindful
        /// Stand hour: 1 stood, 0 idle.
        case standHour
        /// Any other category: 1, the category value in metadata.
        case category
    }

    let hkIdentifier: String
    /// Registry name, or the HealthKit identifier for types outside the registry.
    let name: String
    /// The registry's canonical unit, nil outside the registry.
    let canonicalUnit: String?
    let flavor: Flavor
    /// Whether a `Correlation` may repeat this type's records (see `CorrelationCopies`).
    let isCorrelationMember: Bool
    /// Unit plans by the unit as written (a type is nearly always written in one unit).
    // Read for every record: unchecked, as the scanner's properties (see `XMLTagScanner`).
    @exclusivity(unchecked) var units = ValueInterner<UnitPlan>(slots: 4)

    init(hkIdentifier: String) {
        self.hkIdentifier = hkIdentifier
        let type = DataType.lookup(hkIdentifier)
        name = type?.name ?? hkIdentifier
        canonicalUnit = type?.unit
        isCorrelationMember = CorrelationCopies.memberTypes.contains(name)
        switch hkIdentifier {
        case "HKCategoryTypeIdentifierSleepAnalysis": flavor = .sleep
        case "HKCategoryTypeIdentifierMindfulSession": flavor = .mindful
        case "HKCategoryTypeIdentifierAppleStandHour": flavor = .standHour
        default: flavor = hkIdentifier.hasPrefix("HKCategoryTypeIdentifier") ? .category : .quantity
        }
    }

    /// How a quantity in `unit` (as written in the export) becomes the stored value.
    struct UnitPlan {
        enum Mode {
            /// The unit is already the canonical one.
            case identity
            /// Apple writes percentages as fractions (0.97 for 97 %); the registry's % is 0–100.
            case percent
            /// Converted with `UnitConversion.toCanonical`.
            case convert
            /// No conversion known: kept as written, under the HealthKit identifier.
            case unconvertible
            /// No conversion known, and the type is written as a registry name (`heartRate`,
            /// `ActivitySummary`), not a HealthKit identifier: there is no identifier to keep it
            /// under, so the record is refused, as the native parser refuses such a sample.
            case refused
        }
        let mode: Mode
        /// The unit as written, decoded (`mmol<180.1558800000541>/L`).
        let written: String
        /// The unit the sample carries.
        let unit: String
        /// The type the sample carries (the HealthKit identifier when the unit is unconvertible).
        let type: String
        /// Whether only the unit's spelling changed (`hr` kept as `h`): the value is as written,
        /// the unit as written goes to metadata. Worked out once per plan, not per record.
        let renamed: Bool

        init(mode: Mode, written: String, unit: String, type: String) {
            self.mode = mode
            self.written = written
            self.unit = unit
            self.type = type
            renamed = (mode == .identity || mode == .unconvertible) && !written.isEmpty && written != unit
        }
    }

    /// Apple's spellings of units that the registry knows under another name.
    static let appleUnitSpellings: [String: String] = [
        "mL/kg·min": "mL/(kg*min)", "mL/min·kg": "mL/(kg*min)", "ml/kg·min": "mL/(kg*min)", "ml/min·kg": "mL/(kg*min)",
        "Cal": "kcal", "kcal": "kcal", "count/s": "count/s",
    ]

    /// Resolves the plan for a unit written as `written`.
    func plan(for written: String) -> UnitPlan {
        let spelled = Self.appleUnitSpellings[written] ?? written
        let normalized = UnitConversion.normalize(spelled)
        guard let canonical = canonicalUnit else {
            return UnitPlan(mode: .identity, written: written, unit: written.isEmpty ? "count" : normalized, type: name)
        }
        if written.isEmpty || normalized == canonical {
            return UnitPlan(mode: canonical == "%" ? .percent : .identity, written: written, unit: canonical, type: name)
        }
        if UnitConversion.toCanonical(1, unit: spelled, type: name).1 == canonical {
            return UnitPlan(mode: .convert, written: spelled, unit: canonical, type: name)
        }
        guard hkIdentifier.hasPrefix("HK") else { return UnitPlan(mode: .refused, written: written, unit: normalized, type: name) }
        return UnitPlan(mode: .unconvertible, written: written, unit: normalized, type: hkIdentifier)
    }
}
