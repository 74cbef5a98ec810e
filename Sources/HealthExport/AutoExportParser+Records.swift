import HealthSpoolCore

/// Health Auto Export's `medications` (doses logged in iOS's Medications), `cycleTracking`
/// and `heartRateNotifications` sections: `medicationDose`, `cycleTracking` and
/// `heartRateNotification` samples (docs/formats.md, "Medications, cycles and heart-rate
/// notifications"). Field names vary between app versions; each is looked for under the names
/// seen.
extension AutoExportParser {
    typealias Rejection = AutoExportSampleBuilder.Rejection

    /// The first string of `keys` in `e`, trimmed, or nil.
    static func text(_ e: JSONValue, _ keys: String...) -> String? {
        for k in keys {
            if let s = e[k]?.stringValue?.trimmingCharacters(), !s.isEmpty { return String(s.prefix(200)) }
            if let d = e[k]?.doubleValue, e[k]?.stringValue == nil { return SampleIdentity.canonicalNumber(d) }
        }
        return nil
    }

    /// The first date of `keys` in `e`: nil when none is there, a rejection when one is not a date.
    static func optionalDate(_ e: JSONValue, _ keys: String...) throws -> Timestamp? {
        for k in keys { if let s = e[k]?.stringValue { return try date(s, field: k) } }
        return nil
    }

    /// One `medications` entry: `{name, dosage, scheduledDate, date, status, source}`; status
    /// `taken` (value 1; also an entry without a status, a dose logged) or `skipped` (value 0).
    static func readMedication(_ e: JSONValue, into builder: inout AutoExportSampleBuilder) throws {
        guard let name = text(e, "name", "medication", "displayName", "nickname") else { throw Rejection(reason: "no \"name\"") }
        let scheduled = try optionalDate(e, "scheduledDate", "scheduledTime", "scheduled")
        let logged = try optionalDate(e, "date", "loggedDate", "start", "startDate", "time")
        guard let at = logged ?? scheduled else { throw Rejection(reason: "\(name): no \"date\" or \"scheduledDate\"") }
        let rawStatus = text(e, "status", "logStatus", "log") ?? (e["taken"]?.boolValue.map { $0 ? "taken" : "skipped" }) ?? ""
        let status: String
        switch String(rawStatus.lowercased().filter { $0 != " " }) {
        // Without a status, an entry is a dose that was logged: taken.
        case "", "taken", "logged", "taken(asneeded)", "asneeded": status = "taken"
        case "skipped", "nottaken", "notlogged": status = "skipped"
        default: throw Rejection(reason: "\(name): status '\(rawStatus)' is neither taken nor skipped")
        }
        var metadata = ["medication": name, "status": status]
        if let dose = text(e, "dosage", "dose", "strength") {
            metadata["dose"] = dose + (text(e, "units", "unit").map { " " + $0 } ?? "")
        }
        if let scheduled { metadata["scheduledDate"] = scheduled.iso8601Local }
        if let logged { metadata["loggedDate"] = logged.iso8601Local }
        if let form = text(e, "form") { metadata["form"] = form }
        let source = SampleSource(name: text(e, "source") ?? AutoExportSampleBuilder.defaultSource)
        // One dose is one medication at one scheduled time: its status may change (taken after
        // being skipped), so the sample is revisable and its id leaves the status out.
        let key = name + "\u{1F}" + String((scheduled ?? at).millis)
        try builder.emit(Sample(keyed: key, type: "medicationDose", value: status == "taken" ? 1 : 0, unit: "count", start: at,
                                source: source, metadata: metadata, revisable: true))
    }

    /// HealthKit's numbers for menstrual flow (`HKCategoryValueVaginalBleeding`).
    static let flowLevels: [String: Double] = ["unspecified": 1, "light": 2, "medium": 3, "heavy": 4, "none": 5]

    /// One `cycleTracking` entry: `{name, date | startDate, endDate, value}` (`menstrual_flow`
    /// with `light`…`heavy`, `spotting`, `ovulation_test_result`, `sexual_activity`, …).
    static func readCycleEntry(_ e: JSONValue, into builder: inout AutoExportSampleBuilder) throws {
        guard let kind = text(e, "name", "type", "category") else { throw Rejection(reason: "no \"name\"") }
        guard let start = try optionalDate(e, "date", "startDate", "start") else { throw Rejection(reason: "\(kind): no \"date\"") }
        let end = try optionalDate(e, "endDate", "end") ?? start
        guard end >= start else { throw Rejection(reason: "\(kind): end before start") }
        let raw = text(e, "value", "qty", "flow")
        var metadata = ["kind": kind]
        if let raw { metadata["valueText"] = raw }
        var value = 1.0
        if let raw {
            if let level = flowLevels[raw.lowercased()] { value = level }
            else if let n = Double(raw), n.isFinite { value = n }
        }
        let source = SampleSource(name: text(e, "source") ?? AutoExportSampleBuilder.defaultSource)
        try builder.emit(Sample(keyed: kind + "\u{1F}" + String(start.millis), type: "cycleTracking", value: value, unit: "count",
                                start: start, end: end, source: source, metadata: metadata, revisable: true))
    }

    /// One `heartRateNotifications` entry: `{type | name, start, end, threshold, heartRate:
    /// [{date, qty | Avg}] | number}`; the kind is `high`, `low` or `irregular`, value the
    /// highest (high), lowest (low) or average rate given, else the threshold, else 0.
    static func readHeartRateNotification(_ e: JSONValue, into builder: inout AutoExportSampleBuilder) throws {
        let written = text(e, "type", "name", "kind", "notificationType") ?? ""
        let lower = written.lowercased()
        let kind = lower.contains("irregular") ? "irregular" : lower.contains("high") ? "high" : lower.contains("low") ? "low" : nil
        guard let kind else { throw Rejection(reason: "type '\(written)' is none of high, low, irregular rhythm") }
        guard let start = try optionalDate(e, "start", "date", "startDate") else { throw Rejection(reason: "\(kind): no \"start\"") }
        let end = max(start, try optionalDate(e, "end", "endDate") ?? start)
        var rates: [Double] = []
        if let list = e["heartRate"]?.arrayValue {
            for item in list {
                let rate: Double? = (item["qty"] ?? item["Avg"] ?? item["avg"])?.doubleValue ?? item.doubleValue
                if let rate, rate > 0, rate < 400 { rates.append(rate) }
            }
        } else if let r = e["heartRate"]?.doubleValue, r > 0, r < 400 { rates = [r] }
        let threshold = (e["threshold"]?.doubleValue ?? e["threshold"]?["qty"]?.doubleValue).flatMap { $0 > 0 && $0 < 400 ? $0 : nil }
        let value: Double = switch kind {
        case "high": rates.max() ?? threshold ?? 0
        case "low": rates.min() ?? threshold ?? 0
        default: rates.isEmpty ? 0 : rates.reduce(0, +) / Double(rates.count)
        }
        var metadata = ["kind": kind]
        if !written.isEmpty { metadata["notification"] = written }
        if let threshold { metadata["threshold"] = SampleIdentity.canonicalNumber(threshold) }
        if !rates.isEmpty { metadata["rates"] = String(rates.count) }
        let source = SampleSource(name: text(e, "source") ?? AutoExportSampleBuilder.defaultSource)
        try builder.emit(Sample(keyed: kind + "\u{1F}" + String(start.millis), type: "heartRateNotification",
                                value: (value * 10).rounded() / 10, unit: "count/min", start: start, end: end, source: source,
                                metadata: metadata))
    }
}
