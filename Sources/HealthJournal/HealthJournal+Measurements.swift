import HealthSpoolCore
import HealthSpoolStore

extension HealthJournal {
    /// Stores a manual measurement (R21–R28) as samples of its HealthKit type, queued for sync
    /// like imported ones; out-of-range values are refused before anything is stored. Returns
    /// the samples and how the store took them (a repeat of the same entry is a duplicate).
    /// The types that gained samples go to `onQueued`.
    public func measure(_ m: ManualMeasurement, at: Timestamp, now: Timestamp) throws -> ([Sample], InsertResult) {
        let samples = try m.samples(at: local(at))
        let result = try store.insert(samples, now: now)
        if !result.gained.isEmpty { onQueued(result.gained.keys.sorted()) }
        return (samples, result)
    }
}

extension HealthJournal {
    /// How far back the measurements page reads.
    public static let measurementDays = 90

    /// The measurements typed in (`ManualMeasurement.source`) that were taken in
    /// `[fromMillis, toMillis)`, newest first, at most `limit` a kind; glucose in `glucoseUnit`
    /// (default: the one chosen, `journal.glucose_unit`); numbers written in the user's locale
    /// (`NumberStyle`).
    public func readings(fromMillis: Int64, toMillis: Int64, limit: Int = 200,
                         glucoseUnit: GlucoseUnit? = nil) throws -> [MeasurementReading] {
        let glucoseUnit = glucoseUnit ?? settings.glucoseUnit
        var out: [MeasurementReading] = []
        for kind in MeasurementKind.allCases {
            let samples = try store.samples(type: kind.type, source: ManualMeasurement.source, fromMillis: fromMillis,
                                            toMillis: toMillis, limit: limit)
            var diastolic: [String: Sample] = [:]
            if kind == .bloodPressure, let first = samples.last {
                let lower = try store.samples(type: "bloodPressureDiastolic", source: ManualMeasurement.source,
                                              fromMillis: first.sample.start.millis, toMillis: toMillis, limit: limit * 2)
                for d in lower {
                    diastolic[Self.readingKey(d.sample)] = d.sample
                    if diastolic[String(d.sample.start.millis)] == nil { diastolic[String(d.sample.start.millis)] = d.sample }
                }
            }
            for s in samples.map(\.sample) {
                let at = Timestamp(millis: s.start.millis, utcOffsetSeconds: zone.offset(atUTCMillis: s.start.millis))
                var r = MeasurementReading(kind: kind, at: at, date: WallClock.localDay(of: s.start, zone: zone), value: s.value, text: "")
                r.parts = [SampleStore.SampleKey(type: kind.type, startMillis: s.start.millis, id: s.id)]
                switch kind {
                case .bloodPressure:
                    guard let lower = diastolic[Self.readingKey(s)] ?? diastolic[String(s.start.millis)] else { continue }
                    let dia = lower.value
                    r.diastolic = dia
                    r.parts.append(SampleStore.SampleKey(type: lower.type, startMillis: lower.start.millis, id: lower.id))
                    r.text = "\(style.count(s.value))/\(style.count(dia)) mmHg"
                case .heartRate: r.text = style.count(s.value) + " bpm"
                case .oxygen: r.text = style.number(s.value <= 1 ? s.value * 100 : s.value, digits: 1) + " %"
                case .glucose:
                    r.text = glucoseUnit.text(fromMgPerDL: s.value, style: style)
                    r.other = glucoseUnit.other.text(fromMgPerDL: s.value, style: style)
                case .weight: r.text = style.number(s.value, digits: 1) + " kg"
                case .steps:
                    r.end = Timestamp(millis: s.end.millis, utcOffsetSeconds: zone.offset(atUTCMillis: s.end.millis))
                    r.text = Self.words(.steps, value: s.value, diastolic: nil, style: style, glucoseUnit: glucoseUnit, end: r.end)
                }
                out.append(r)
            }
        }
        return out.sorted { $0.at.millis > $1.at.millis }
    }

    /// The measurements page: the last `days` days of readings by day, each kind's latest.
    public func measurements(now: Timestamp, days: Int = measurementDays,
                             glucoseUnit: GlucoseUnit? = nil) throws -> MeasurementsView {
        let glucoseUnit = glucoseUnit ?? settings.glucoseUnit
        let today = WallClock.localDay(of: now, zone: zone)
        let from = WallClock.bounds(of: CivilDate(daysSinceEpoch: today.daysSinceEpoch - Int64(days - 1)), zone: zone).0
        let to = WallClock.bounds(of: today, zone: zone).1
        let all = try readings(fromMillis: from, toMillis: to, glucoseUnit: glucoseUnit)
        var byDay: [MeasurementDay] = []
        for r in all {
            let d = r.date
            if byDay.last?.date == d { byDay[byDay.count - 1].readings.append(r) } else { byDay.append(MeasurementDay(date: d, readings: [r])) }
        }
        let latest = MeasurementKind.readingKinds.map { k in (kind: k, reading: all.first { $0.kind == k }) }
        return MeasurementsView(latest: latest, days: byDay, periodDays: days, glucoseUnit: glucoseUnit)
    }

    /// What pairs a reading's systolic and diastolic samples: their correlation id, else their time.
    static func readingKey(_ s: Sample) -> String { s.metadata["HKCorrelationID"] ?? String(s.start.millis) }
}
