import HealthSpoolCore

/// Health Auto Export's `symptoms` and `stateOfMind` sections: samples of HealthKit's symptom
/// category types and of state of mind, for the health journal.
extension AutoExportParser {
    /// HealthKit's severity values (`HKCategoryValueSeverity`), by the name HAE writes.
    static let severities: [String: Double] = [
        "unspecified": 0, "not present": 1, "notpresent": 1, "mild": 2, "moderate": 3, "severe": 4,
    ]

    /// Symptom names as Apple Health shows them whose registry name is not their camel case.
    static let symptomAliases: [String: String] = [
        "bodyAndMuscleAche": "generalizedBodyAche", "cough": "coughing", "chestTightnessPain": "chestTightnessOrPain",
        "rapidPoundingFlutteringHeartbeat": "rapidPoundingOrFlutteringHeartbeat",
    ]

    /// Members of a symptom or state-of-mind entry read into the sample itself.
    static let journalFields: Set<String> = ["start", "end", "name", "severity", "source", "metadata", "labels", "associations", "valence", "id"]

    /// `{start, end, name, severity, userEntered, source}`: a sample of the symptom's HealthKit
    /// type (`Headache` → `headache`, HKCategoryTypeIdentifierHeadache), value = severity as
    /// HealthKit numbers it, the severity as written in `severity`. A symptom outside the
    /// registry keeps its own name (camel case) as the type.
    static func readSymptom(_ s: JSONValue, into builder: inout AutoExportSampleBuilder) throws {
        guard let members = s.objectValue else { throw AutoExportSampleBuilder.Rejection(reason: "expected an object") }
        guard let name = s["name"]?.stringValue, !name.isEmpty else { throw AutoExportSampleBuilder.Rejection(reason: "no \"name\"") }
        let (start, end) = try span(of: s)
        let camel = camelCase(AutoExportNames.snakeCase(name))
        let type = DataType.lookup(symptomAliases[camel] ?? camel)?.name ?? camel
        var metadata: [String: String] = ["symptomName": name]
        var value = 0.0
        if let severity = s["severity"]?.stringValue {
            metadata["severity"] = severity
            value = severities[severity.lowercased()] ?? 0
        } else if let n = s["severity"]?.doubleValue {
            value = n
        }
        for (key, v) in members where !journalFields.contains(key) {
            if let text = v.metadataText { metadata[key] = text }
        }
        try builder.emit(type: type, value: value, unit: "count", start: start, end: end,
                         source: s["source"]?.stringValue ?? AutoExportSampleBuilder.defaultSource,
                         metadata: metadata, revisable: false)
    }

    /// `{id, start, end, kind, valence, valenceClassification, labels[], associations[],
    /// metadata{}}`: a `stateOfMind` sample, value = valence (-1…1); `kind`,
    /// `valenceClassification`, `labels` and `associations` (JSON arrays) and the entry's own
    /// metadata in metadata.
    static func readStateOfMind(_ s: JSONValue, into builder: inout AutoExportSampleBuilder) throws {
        guard let members = s.objectValue else { throw AutoExportSampleBuilder.Rejection(reason: "expected an object") }
        guard let valence = s["valence"]?.doubleValue, valence.isFinite else {
            throw AutoExportSampleBuilder.Rejection(reason: "no numeric \"valence\"")
        }
        let (start, end) = try span(of: s)
        var metadata: [String: String] = [:]
        if let id = s["id"]?.stringValue { metadata["stateOfMindId"] = id }
        for key in ["labels", "associations"] {
            if let list = s[key], list.arrayValue != nil { var w = JSONWriter(); w.value(list); metadata[key] = w.text }
        }
        for (key, v) in s["metadata"]?.objectValue ?? [] {
            if let text = v.metadataText { metadata[key] = text }
        }
        for (key, v) in members where !journalFields.contains(key) {
            if let text = v.metadataText { metadata[key] = text }
        }
        try builder.emit(type: "stateOfMind", value: valence, unit: "count", start: start, end: end,
                         source: s["source"]?.stringValue ?? AutoExportSampleBuilder.defaultSource,
                         metadata: metadata, revisable: false)
    }

    /// An entry's `start`…`end` (`end` defaults to `start`).
    static func span(of s: JSONValue) throws -> (Timestamp, Timestamp) {
        guard let startText = (s["start"] ?? s["date"])?.stringValue else { throw AutoExportSampleBuilder.Rejection(reason: "no \"start\"") }
        let start = try date(startText, field: "start")
        let end = try s["end"]?.stringValue.map { try date($0, field: "end") } ?? start
        guard end >= start else { throw AutoExportSampleBuilder.Rejection(reason: "\"end\" is before \"start\"") }
        return (start, end)
    }
}
