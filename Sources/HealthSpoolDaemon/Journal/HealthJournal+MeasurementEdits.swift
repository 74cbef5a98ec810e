import HealthSpoolCore
import HealthSpoolStore

/// Correcting a measurement typed in by hand: delete it (a tombstone for the gateway), put it
/// back (the same samples, sent again), or change its numbers (the old reading deleted, the new
/// one stored at the same time: a sample's id follows from its value).
extension HealthJournal {
    /// The reading `key` names (`MeasurementReading.key`), deleted or not.
    public func measurement(_ key: String) throws -> MeasurementReading {
        let parts = key.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let start = Int64(parts[0]), let id = SampleID(string: String(parts[1])) else {
            throw JournalError.invalid(field: "measurement", value: key, expected: "a reading's key (start.id), as the measurements page links it")
        }
        for kind in MeasurementKind.allCases {
            guard let row = try store.rows(type: kind.type, startMillis: start).first(where: { $0.id == id }) else { continue }
            let at = Timestamp(millis: start, utcOffsetSeconds: zone.offset(atUTCMillis: start))
            var r = MeasurementReading(kind: kind, at: at, date: WallClock.localDay(of: at, zone: zone), value: row.value, text: "")
            r.parts = [SampleStore.SampleKey(type: kind.type, startMillis: start, id: id)]
            if kind == .bloodPressure {
                let pair = row.metadata["HKCorrelationID"]
                if let lower = try store.rows(type: "bloodPressureDiastolic", startMillis: start).first(where: { $0.metadata["HKCorrelationID"] == pair }) {
                    r.diastolic = lower.value
                    r.parts.append(SampleStore.SampleKey(type: "bloodPressureDiastolic", startMillis: start, id: lower.id))
                }
            }
            r.text = Self.words(kind, value: row.value, diastolic: r.diastolic, style: NumberStyle(environment: context.environment),
                                glucoseUnit: context.settings.glucoseUnit)
            return r
        }
        throw JournalError.notFound(kind: "measurement", key: key)
    }

    /// Deletes the reading `key` names: its samples stay as tombstones, sent to the gateway.
    @discardableResult
    public func deleteMeasurement(_ key: String) throws -> MeasurementReading {
        let r = try measurement(key)
        let types = try store.setDeleted(r.parts, deleted: true)
        if !types.isEmpty { onQueued(types) }
        return r
    }

    /// Puts a deleted reading back: the same samples (same ids), sent again.
    @discardableResult
    public func restoreMeasurement(_ key: String) throws -> MeasurementReading {
        let r = try measurement(key)
        let types = try store.setDeleted(r.parts, deleted: false)
        if !types.isEmpty { onQueued(types) }
        return r
    }

    /// Changes the reading `key` names to `m`, taken at the same time: the old one is deleted
    /// and the new one stored, in one transaction. Returns the new reading's key.
    @discardableResult
    public func editMeasurement(_ key: String, to m: ManualMeasurement, now: Timestamp) throws -> (old: MeasurementReading, newKey: String) {
        let old = try measurement(key)
        let samples = try m.samples(at: old.at)
        var types: Set<String> = []
        try store.transaction {
            types.formUnion(try store.setDeleted(old.parts, deleted: true))
            let result = try store.insert(samples, now: now)
            types.formUnion(result.gained.keys)
            // The same numbers typed again: the reading stays as it was.
            types.formUnion(try store.setDeleted(samples.map { SampleStore.SampleKey(type: $0.type, startMillis: $0.start.millis, id: $0.id) },
                                                 deleted: false))
        }
        if !types.isEmpty { onQueued(types.sorted()) }
        return (old, "\(samples[0].start.millis).\(samples[0].id)")
    }

    /// A reading's key from the samples `measure` stored.
    public static func key(of samples: [Sample]) -> String { samples.first.map { "\($0.start.millis).\($0.id)" } ?? "" }

    /// A value in words, as `readings` writes it.
    static func words(_ kind: MeasurementKind, value: Double, diastolic: Double?, style: NumberStyle, glucoseUnit: GlucoseUnit) -> String {
        switch kind {
        case .bloodPressure: "\(style.count(value))/\(style.count(diastolic ?? 0)) mmHg"
        case .heartRate: style.count(value) + " bpm"
        case .oxygen: style.number(value <= 1 ? value * 100 : value, digits: 1) + " %"
        case .glucose: glucoseUnit.text(fromMgPerDL: value, style: style)
        case .weight: style.number(value, digits: 1) + " kg"
        }
    }
}
