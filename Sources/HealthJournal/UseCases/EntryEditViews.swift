import HealthSpoolCore

/// What the web's page that changes a symptom entry shows: the entry (nil: no entry has that
/// id) and the journal's suggestions for its group and factors.
public struct SymptomEditView: Sendable {
    public var entry: SymptomEntry?
    public var choices: SymptomLogChoices
}

/// What the web's page that changes a measurement shows: the reading (nil: it was deleted, or
/// the key is not one) and the unit blood sugar is typed in.
public struct MeasurementEditView: Sendable {
    public var reading: MeasurementReading?
    public var glucoseUnit: GlucoseUnit
}

extension HealthJournal {
    /// The symptom entry whose id starts with `idPrefix`, to change, with the suggestions.
    public func symptomEditView(_ idPrefix: String) throws -> SymptomEditView {
        SymptomEditView(entry: try? symptomEntry(idPrefix), choices: try logChoices())
    }
}

extension HealthJournal {
    /// The reading with this key (`MeasurementReading.key`), to change; blood sugar in `glucoseUnit`.
    public func measurementEditView(_ key: String, glucoseUnit: GlucoseUnit) -> MeasurementEditView {
        MeasurementEditView(reading: try? measurement(key), glucoseUnit: glucoseUnit)
    }
}
