import HealthSpoolCore
import HealthSpoolStore

extension VisitReports {
    /// The measurements a report shows, in order: kind (a type, or blood pressure), title, unit.
    static let measurementKinds: [(kind: String, title: String, unit: String)] = [
        ("bloodPressure", "Blood pressure", "mmHg"), ("heartRate", "Heart rate", "bpm"),
        ("oxygenSaturation", "Blood oxygen", "%"), ("bloodGlucose", "Blood glucose", "mg/dL"), ("bodyMass", "Weight", "kg"),
    ]

    /// The other vital signs the FHIR file carries besides the summary's (`fhirBundle`).
    static let otherVitalKinds: [(kind: String, title: String, unit: String)] = [
        ("respiratoryRate", "Respiratory rate", "/min"), ("height", "Height", "cm"), ("bodyMassIndex", "Body mass index", "kg/m²"),
        ("bodyTemperature", "Body temperature", "°C"),
    ]

    /// Each kind with readings in the period: its readings one by one (with their sample ids) up
    /// to `MeasurementFigures.readingLimit`, else per day from the rollups (no sample read).
    func measurementFigures(from: CivilDate, to: CivilDate,
                            kinds: [(kind: String, title: String, unit: String)] = measurementKinds) throws -> [MeasurementFigures] {
        try store.ensureRollups()
        let (start, _) = WallClock.bounds(of: from, zone: zone)
        let (_, end) = WallClock.bounds(of: to, zone: zone)
        let types = kinds.flatMap { $0.kind == "bloodPressure" ? ["bloodPressureSystolic", "bloodPressureDiastolic"] : [$0.kind] }
        var rollups: [String: [DayRollup]] = [:]
        for r in try store.rollups(fromDay: from.daysSinceEpoch, toDay: to.daysSinceEpoch, figures: types) {
            rollups[r.figure, default: []].append(r)
        }
        var out: [MeasurementFigures] = []
        for (kind, title, unit) in kinds {
            let main = kind == "bloodPressure" ? "bloodPressureSystolic" : kind
            let days = rollups[main] ?? []
            let count = days.reduce(0) { $0 + $1.count }
            guard count > 0 else { continue }
            var m = MeasurementFigures(kind: kind, title: title, unit: unit, count: count, readings: [], daily: [])
            if count <= MeasurementFigures.readingLimit {
                let samples = try store.identifiedReadings(type: main, from: start, to: end)
                var second: [Int64: SampleStore.IdentifiedReading] = [:]
                if kind == "bloodPressure" {
                    for s in try store.identifiedReadings(type: "bloodPressureDiastolic", from: start, to: end) { second[s.start.millis] = s }
                }
                m.readings = samples.map {
                    let dia = second[$0.start.millis]
                    return Reading(at: LocalDay.timestamp($0.start.millis, in: zone), value: $0.value, second: dia?.value, id: $0.id,
                                   secondID: dia?.id)
                }
            } else {
                let diastolic = Dictionary((rollups["bloodPressureDiastolic"] ?? []).map { ($0.day, $0) }) { a, _ in a }
                m.daily = days.filter { $0.count > 0 }.map { r in
                    var d = DailyRange(day: CivilDate(daysSinceEpoch: r.day), count: r.count, low: r.low ?? r.value / Double(r.count),
                                       mean: r.value / Double(r.count), high: r.high ?? r.value / Double(r.count))
                    if kind == "bloodPressure", let dia = diastolic[r.day], dia.count > 0 {
                        let mean = dia.value / Double(dia.count)
                        d.second = .init(low: dia.low ?? mean, mean: mean, high: dia.high ?? mean)
                    }
                    return d
                }
            }
            out.append(m)
        }
        return out
    }

    /// Steps, asleep and in bed per day from the rollups, with their means over the days that
    /// have them; nil when no day has any.
    func activityFigures(days: [CivilDate]) throws -> ActivityFigures? {
        guard let first = days.first, let last = days.last else { return nil }
        try store.ensureRollups()
        var byDay: [Int64: ActivityDay] = [:]
        for r in try store.rollups(fromDay: first.daysSinceEpoch, toDay: last.daysSinceEpoch, figures: ["stepCount", DayRollup.sleep]) {
            var d = byDay[r.day] ?? ActivityDay(day: CivilDate(daysSinceEpoch: r.day))
            if r.figure == "stepCount" { d.steps = r.value } else if let s = r.sleepFigure {
                d.asleepMinutes = s.asleepMinutes > 0 ? s.asleepMinutes : nil
                d.inBedMinutes = s.inBedMinutes > 0 ? s.inBedMinutes : nil
                if s.end > s.start { d.night = s.start..<s.end }
            }
            byDay[r.day] = d
        }
        guard !byDay.isEmpty else { return nil }
        let list = days.map { byDay[$0.daysSinceEpoch] ?? ActivityDay(day: $0) }
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        return ActivityFigures(days: list, meanSteps: mean(list.compactMap(\.steps)),
                               meanAsleepMinutes: mean(list.compactMap(\.asleepMinutes)),
                               meanInBedMinutes: mean(list.compactMap(\.inBedMinutes)))
    }
}

extension ActivityDay {
    init(day: CivilDate) { self.init(day: day, steps: nil, asleepMinutes: nil, inBedMinutes: nil) }
}
