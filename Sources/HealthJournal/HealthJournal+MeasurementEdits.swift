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
                // Its bottom number: the diastolic sample of the same pairing, else the one at the
                // same time in the same state (an edit that kept the bottom number re-paired it).
                let pair = row.metadata["HKCorrelationID"]
                let lowers = try store.rows(type: "bloodPressureDiastolic", startMillis: start)
                if let lower = lowers.first(where: { $0.metadata["HKCorrelationID"] == pair }) ?? lowers.first(where: { $0.deleted == row.deleted }) {
                    r.diastolic = lower.value
                    r.parts.append(SampleStore.SampleKey(type: "bloodPressureDiastolic", startMillis: start, id: lower.id))
                }
            }
            if kind == .steps { r.end = Timestamp(millis: row.endMillis, utcOffsetSeconds: zone.offset(atUTCMillis: row.endMillis)) }
            r.text = Self.words(kind, value: row.value, diastolic: r.diastolic, style: style,
                                glucoseUnit: settings.glucoseUnit, end: r.end)
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

    /// Puts a deleted reading back: the same samples (same ids), paired again, sent again.
    @discardableResult
    public func restoreMeasurement(_ key: String) throws -> MeasurementReading {
        let r = try measurement(key)
        if r.kind == .bloodPressure, r.parts.count == 2,
           let top = try store.rows(type: r.parts[0].type, startMillis: r.parts[0].startMillis).first(where: { $0.id == r.parts[0].id }),
           let bottom = try store.rows(type: r.parts[1].type, startMillis: r.parts[1].startMillis).first(where: { $0.id == r.parts[1].id }),
           let pair = top.metadata["HKCorrelationID"], bottom.metadata["HKCorrelationID"] != pair {
            try store.setMetadata(r.parts[1], bottom.metadata.merging(["HKCorrelationID": pair]) { $1 })
        }
        let types = try store.setDeleted(r.parts, deleted: false)
        if !types.isEmpty { onQueued(types) }
        return r
    }

    /// Changes the reading `key` names to `m`, taken at the same time: the old one is deleted
    /// and the new one stored, in one transaction. Returns the new reading's key.
    @discardableResult
    public func editMeasurement(_ key: String, to m: ManualMeasurement, now: Timestamp) throws -> (old: MeasurementReading, newKey: String) {
        let old = try measurement(key)
        return try editMeasurement(old, key: key, samples: try m.samples(at: old.at), now: now)
    }

    /// Changes the count of the steps reading `key` names to `count`, over the same time: the old
    /// one deleted and the new one stored, in one transaction. Returns the new reading's key.
    @discardableResult
    public func editSteps(_ key: String, to count: Double, now: Timestamp) throws -> (old: MeasurementReading, newKey: String) {
        let old = try measurement(key)
        guard old.kind == .steps, let end = old.end else {
            throw JournalError.invalid(field: "measurement", value: key, expected: "a steps count typed in")
        }
        return try editMeasurement(old, key: key, samples: try ManualMeasurement.steps(count, from: old.at, to: end).samples(at: old.at), now: now)
    }

    func editMeasurement(_ old: MeasurementReading, key: String, samples: [Sample], now: Timestamp) throws -> (old: MeasurementReading, newKey: String) {
        // The numbers as they were shown (5.4 mmol/L is 97.3 mg/dL, stored as 98): no change.
        if let kind = MeasurementKind.allCases.first(where: { $0.type == samples[0].type }), kind == old.kind,
           Self.words(kind, value: samples[0].value, diastolic: samples.count > 1 ? samples[1].value : nil, style: style,
                      glucoseUnit: settings.glucoseUnit, end: old.end) == old.text {
            return (old, key)
        }
        var types: Set<String> = []
        try store.transaction {
            types.formUnion(try store.setDeleted(old.parts, deleted: true))
            let result = try store.insert(samples, now: now)
            types.formUnion(result.gained.keys)
            // A sample the old reading had too (the same diastolic under another systolic: its id
            // follows from its own value) was deleted above: it comes back with the new pairing.
            let keys = samples.map { SampleStore.SampleKey(type: $0.type, startMillis: $0.start.millis, id: $0.id) }
            for (k, s) in zip(keys, samples) where old.parts.contains(k) { try store.setMetadata(k, s.metadata) }
            types.formUnion(try store.setDeleted(keys, deleted: false))
        }
        if !types.isEmpty { onQueued(types.sorted()) }
        return (old, "\(samples[0].start.millis).\(samples[0].id)")
    }

    /// A reading's key from the samples `measure` stored.
    public static func key(of samples: [Sample]) -> String { samples.first.map { "\($0.start.millis).\($0.id)" } ?? "" }

    /// A value in words, as `readings` writes it.
    package static func words(_ kind: MeasurementKind, value: Double, diastolic: Double?, style: NumberStyle, glucoseUnit: GlucoseUnit,
                      end: Timestamp? = nil) -> String {
        switch kind {
        case .bloodPressure: "\(style.count(value))/\(style.count(diastolic ?? 0)) mmHg"
        case .heartRate: style.count(value) + " bpm"
        case .oxygen: style.number(value <= 1 ? value * 100 : value, digits: 1) + " %"
        case .glucose: glucoseUnit.text(fromMgPerDL: value, style: style)
        case .weight: style.number(value, digits: 1) + " kg"
        case .steps: style.count(value) + " steps" + (end.map { " until " + String($0.iso8601Local.dropFirst(11).prefix(5)) } ?? "")
        }
    }
}
