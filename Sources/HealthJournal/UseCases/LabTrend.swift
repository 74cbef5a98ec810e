import HealthSpoolCore

/// One lab test's values over time (`LabReading`s of one test and unit, oldest first): a
/// glucose, a cholesterol, an HbA1c. Where the test is one of the kinds a person types in (blood
/// sugar, heart rate, weight, blood oxygen), `kind` names it and `measured` gives each value in
/// that kind's stored unit, so the measurements page draws it beside the typed-in readings.
public struct LabTrend: Sendable {
    public var name: String
    public var loinc: String?
    public var unit: String
    /// Oldest first.
    public var readings: [LabReading]
    /// The typed-in kind it is, if any.
    public var kind: MeasurementKind?

    /// The newest reading.
    public var latest: LabReading { readings[readings.count - 1] }
    /// The reading before the newest, if any.
    public var previous: LabReading? { readings.count > 1 ? readings[readings.count - 2] : nil }

    /// Readings grouped by test (the LOINC code, else the name) and unit, each group oldest first;
    /// the groups by name.
    public static func group(_ readings: [LabReading]) -> [LabTrend] {
        var order: [String] = []
        var groups: [String: [LabReading]] = [:]
        for r in readings {
            let key = (r.loinc ?? r.name.lowercased()) + "\u{1}" + r.unit
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(r)
        }
        return order.map { key in
            let rs = groups[key]!.sorted { $0.date.millis < $1.date.millis }
            let last = rs[rs.count - 1]
            return LabTrend(name: last.name, loinc: last.loinc, unit: last.unit, readings: rs, kind: kind(of: last))
        }.sorted { ($0.name.lowercased(), $0.unit) < ($1.name.lowercased(), $1.unit) }
    }

    /// The typed-in kind a lab value is, by LOINC code or name and a unit it can be drawn in.
    static func kind(of r: LabReading) -> MeasurementKind? {
        let code = r.loinc ?? ""
        let name = r.name.lowercased()
        if ["2345-7", "2339-0", "41653-7", "14749-6", "15074-8", "1558-6", "2341-6"].contains(code) || (r.loinc == nil && name.contains("glucose")) {
            return ["mg/dL", "mmol/L"].contains(r.unit) ? .glucose : nil
        }
        if ["8867-4", "8889-8"].contains(code) { return ["/min", "{beats}/min", "bpm", "beats/min"].contains(r.unit) ? .heartRate : nil }
        if ["29463-7", "3141-9"].contains(code) { return ["kg", "g", "lb", "[lb_av]"].contains(r.unit) ? .weight : nil }
        if ["2708-6", "59408-5"].contains(code) { return r.unit == "%" ? .oxygen : nil }
        return nil
    }

    /// A reading in its kind's stored unit (glucose mg/dL, weight kg, oxygen %, heart rate bpm).
    public func measured(_ r: LabReading) -> Double {
        switch (kind, r.unit) {
        case (.glucose, "mmol/L"): UnitConversion.convert(r.value, from: "mmol/L", to: "mg/dL") ?? r.value * 18.0182
        case (.weight, "g"): r.value / 1000
        case (.weight, "lb"), (.weight, "[lb_av]"): r.value * 0.45359237
        default: r.value
        }
    }

    /// `182 mg/dL on 2016-08-22, before 195 mg/dL on 2015-07-01 (Valley Clinic)`.
    public var line: String {
        "\(name): \(latest.text) on \(latest.date.iso8601Local.prefix(10))"
            + (previous.map { ", before \($0.text) on \($0.date.iso8601Local.prefix(10))" } ?? "")
            + (readings.count > 2 ? ", \(readings.count) results" : "") + " (\(latest.provider))"
    }

    /// The trend as `--json` lists it (and the doctor's summary's `labTrends`).
    public var json: JSONValue {
        .object([("name", .string(name)), ("loinc", loinc.map(JSONValue.string) ?? .null), ("unit", .string(unit)),
                 ("kind", kind.map { .string($0.rawValue) } ?? .null), ("readings", .array(readings.map(\.json)))])
    }
}
