import HealthSpoolCore
import HealthSpoolStore

/// The kinds of measurement a person types in, in the order the measurements page lists them.
/// Steps typed in are one too: listed by day with Change and Delete like the others (issue 40),
/// though not among the latest readings or the charts (the day's steps are a total, shown on
/// Today and the day view).
public enum MeasurementKind: String, CaseIterable, Sendable {
    case bloodPressure, heartRate, oxygen, glucose, weight, steps

    /// The kinds with a latest reading and a chart: all but steps.
    public static let readingKinds: [MeasurementKind] = allCases.filter { $0 != .steps }

    /// The kind in words, as the pages title it.
    public var title: String {
        switch self {
        case .bloodPressure: "Blood pressure"
        case .heartRate: "Heart rate"
        case .oxygen: "Blood oxygen"
        case .glucose: "Blood sugar"
        case .weight: "Weight"
        case .steps: "Steps"
        }
    }

    /// The sample type read (blood pressure: the systolic one, its diastolic paired with it).
    var type: String {
        switch self {
        case .bloodPressure: "bloodPressureSystolic"
        case .heartRate: "heartRate"
        case .oxygen: "oxygenSaturation"
        case .glucose: "bloodGlucose"
        case .weight: "bodyMass"
        case .steps: "stepCount"
        }
    }
}

/// One measurement as people read it: "128/82 mmHg", "97 %", "72 bpm", "5.4 mmol/L".
public struct MeasurementReading: Sendable, Equatable {
    public var kind: MeasurementKind
    /// When it was measured, with the journal zone's offset.
    public var at: Timestamp
    /// The local day it was measured on.
    public var date: CivilDate
    /// The stored value (blood pressure: systolic; glucose: mg/dL; weight: kg).
    public var value: Double
    /// Blood pressure's diastolic value.
    public var diastolic: Double?
    /// Where the count of steps typed in ends (it starts at `at`); nil for the other kinds.
    public var end: Timestamp?
    /// The value with its unit, glucose in the chosen unit.
    public var text: String
    /// Glucose in the other unit ("98 mg/dL"), shown beside.
    public var other: String?
    /// The stored samples it is (blood pressure: systolic, then diastolic).
    public var parts: [SampleStore.SampleKey] = []

    /// What names the reading to `HealthJournal.deleteMeasurement` and a form:
    /// `<start ms>.<id of its first sample>`.
    public var key: String { parts.first.map { "\($0.startMillis).\($0.id)" } ?? "" }

    /// The local time, HH:MM.
    public var time: String { String(at.iso8601Local.dropFirst(11).prefix(5)) }

    /// The reading as `--json` lists it; `id` is its key (`measure delete ID`).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("at", .string(at.iso8601Local)), ("value", .number(value))]
        if !key.isEmpty { members.insert(("id", .string(key)), at: 0) }
        if let diastolic { members.append(("diastolic", .number(diastolic))) }
        if let end { members.append(("end", .string(end.iso8601Local))) }
        members.append(("text", .string(text)))
        if let other { members.append(("other", .string(other))) }
        return .object(members)
    }

    /// "Blood pressure 128/82 mmHg", glucose with the other unit in brackets.
    public var line: String { kind.title + " " + text + (other.map { " (\($0))" } ?? "") }
}

/// One day of readings, newest first.
public struct MeasurementDay: Sendable {
    public var date: CivilDate
    public var readings: [MeasurementReading]
}

/// The measurements page: each kind's latest reading, and the recent readings by day.
public struct MeasurementsView: Sendable {
    /// Every kind, in `MeasurementKind` order, with its latest reading of the period (nil: none).
    public var latest: [(kind: MeasurementKind, reading: MeasurementReading?)]
    /// The days with readings, newest first.
    public var days: [MeasurementDay]
    /// How many days back the readings go.
    public var periodDays: Int
    public var glucoseUnit: GlucoseUnit

    /// The view as `--json` gives it.
    public var json: JSONValue {
        .object([
            ("periodDays", .number(Double(periodDays))), ("glucoseUnit", .string(glucoseUnit.rawValue)),
            ("latest", .object(latest.map { ($0.kind.rawValue, $0.reading?.json ?? .null) })),
            ("days", .array(days.map { d in .object([("date", .string(d.date.description)), ("readings", .array(d.readings.map(\.json)))]) })),
        ])
    }
}

extension MeasurementsView {
    /// The terminal form (`healthspool measure list`): each kind's latest, then the readings by
    /// day, newest first.
    public var text: String {
        let width = MeasurementKind.allCases.map(\.title.count).max()! + 2
        func padded(_ s: String) -> String { s + String(repeating: " ", count: max(1, width - s.count)) }
        var lines = ["Latest (last \(periodDays) days)"]
        for (kind, reading) in latest {
            guard let r = reading else { lines.append("  " + padded(kind.title) + "—"); continue }
            lines.append("  " + padded(kind.title) + r.text + (r.other.map { " (\($0))" } ?? "") + ", \(r.date) \(r.time)")
        }
        for day in days {
            lines.append("")
            lines.append(day.date.description)
            for r in day.readings { lines.append("  \(r.time)  \(r.line)") }
        }
        if days.isEmpty { lines += ["", "No measurements typed in during the last \(periodDays) days."] }
        return lines.joined(separator: "\n")
    }
}
