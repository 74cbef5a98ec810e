import HealthSpoolCore

/// Health Auto Export (iOS app) JSON and CSV. See docs/formats.md, "Health Auto Export", for
/// the mapping, the units and the aggregation/revision rule.
public enum AutoExportParser {
    static let jsonFormat = "Health Auto Export JSON"

    /// Sections of `data` that are read; every other member is named in the report as not read.
    static let readSections: Set<String> = ["metrics", "workouts", "symptoms", "stateOfMind", "ecg", "medications",
                                            "cycleTracking", "heartRateNotifications"]

    /// Point members read into the value or the interval; the other scalars become metadata.
    static let pointFields: Set<String> = [
        "date", "qty", "source", "units", "Min", "Avg", "Max", "min", "avg", "max",
        "systolic", "diastolic", "startDate", "endDate",
    ]

    /// Parses Health Auto Export JSON (`data.metrics[]`, `data.workouts[]`).
    public static func parseJSON(_ input: [UInt8], into sink: SampleSink) throws -> ParseReport {
        let bytes = input.withoutByteOrderMark
        let doc: JSONValue
        let invalid: [JSONInvalidString]
        do {
            (doc, invalid) = try JSONParser.parseCheckingUTF8(bytes)
        } catch let e as JSONSyntaxError {
            throw ImportError.malformedJSON(e, format: jsonFormat, in: bytes,
                                            hint: "the file is not complete JSON (cut short while syncing?) — export it again")
        }
        let data = doc["data"] ?? doc
        let metrics = data["metrics"], workouts = data["workouts"]
        guard let members = data.objectValue, members.contains(where: { ExportFormat.autoExportSections.contains($0.0) }) else {
            throw ImportError.malformed(format: jsonFormat, line: nil, offset: nil,
                                        reason: "expected {\"data\": {\"metrics\": [...], \"workouts\": [...]}} but found none of Health Auto Export's sections (\(ExportFormat.autoExportSections.sorted().joined(separator: ", ")))")
        }
        for (key, section) in [("metrics", metrics), ("workouts", workouts)] {
            if let section, section.arrayValue == nil, !section.isNull {
                throw ImportError.malformed(format: jsonFormat, line: nil, offset: nil, reason: "\"data.\(key)\" must be an array")
            }
        }
        var builder = AutoExportSampleBuilder(sink: sink)
        builder.refused = refusals(invalid, underData: doc["data"] != nil, in: bytes, data: data, into: &builder)
        let metricList = metrics?.arrayValue ?? []
        let period = filePeriod(metricList)
        for (n, metric) in metricList.enumerated() where !builder.isRefused("metrics", n) {
            try readMetric(metric, index: n, filePeriod: period, into: &builder)
        }
        for (n, workout) in (workouts?.arrayValue ?? []).enumerated() where !builder.isRefused("workouts", n) {
            do { try readWorkout(workout, into: &builder) }
            catch let r as AutoExportSampleBuilder.Rejection { builder.note("workout \(n + 1): \(r.reason)") }
        }
        for (n, symptom) in (data["symptoms"]?.arrayValue ?? []).enumerated() where !builder.isRefused("symptoms", n) {
            do { try readSymptom(symptom, into: &builder) }
            catch let r as AutoExportSampleBuilder.Rejection { builder.note("symptom \(n + 1): \(r.reason)") }
        }
        for (n, entry) in (data["stateOfMind"]?.arrayValue ?? []).enumerated() where !builder.isRefused("stateOfMind", n) {
            do { try readStateOfMind(entry, into: &builder) }
            catch let r as AutoExportSampleBuilder.Rejection { builder.note("stateOfMind \(n + 1): \(r.reason)") }
        }
        for (n, entry) in (data["ecg"]?.arrayValue ?? []).enumerated() where !builder.isRefused("ecg", n) {
            do { try readECG(entry, into: &builder) }
            catch let r as AutoExportSampleBuilder.Rejection { builder.note("ecg \(n + 1): \(r.reason)") }
        }
        for (section, read) in [("medications", readMedication), ("cycleTracking", readCycleEntry),
                                ("heartRateNotifications", readHeartRateNotification)] as [(String, (JSONValue, inout AutoExportSampleBuilder) throws -> Void)] {
            for (n, entry) in (data[section]?.arrayValue ?? []).enumerated() where !builder.isRefused(section, n) {
                do { try read(entry, &builder) }
                catch let r as AutoExportSampleBuilder.Rejection { builder.note("\(section) \(n + 1): \(r.reason)") }
            }
        }
        // Every other section is named, never dropped without a word.
        for (key, section) in data.objectValue ?? [] where !readSections.contains(key) {
            let count = section.arrayValue?.count ?? (section.isNull ? 0 : 1)
            if count > 0 { builder.ignore("\(key) (section not read)", count: count) }
        }
        return builder.report
    }

    /// The items that hold strings whose bytes are not UTF-8, each noted as a problem naming
    /// the byte, line and field: a metric's point (`metrics/3/7`), a whole metric when its name
    /// or unit is damaged (`metrics/3`), or an entry of another section (`workouts/2`).
    static func refusals(_ invalid: [JSONInvalidString], underData: Bool, in bytes: [UInt8], data: JSONValue,
                         into builder: inout AutoExportSampleBuilder) -> Set<String> {
        var refused: Set<String> = []
        for bad in invalid {
            var path = bad.path[...]
            if underData, case .key("data")? = path.first { path = path.dropFirst() }
            var parts: [String] = []
            var field = "a member name"
            var what = "the document"
            if case let .key(section)? = path.first, case let .index(i)? = path.dropFirst().first {
                parts = [section, String(i)]
                what = "\(section) \(i + 1)"
                let rest = path.dropFirst(2)
                if section == "metrics", case .key("data")? = rest.first, case let .index(j)? = rest.dropFirst().first {
                    parts.append(String(j))
                    let name = data["metrics"]?.arrayValue?[i]["name"]?.stringValue ?? String(i + 1)
                    what = "metric \(name), point \(j + 1)"
                }
            }
            if case let .key(k)? = path.last { field = "\"\(k)\"" }
            let line = bytes.prefix(bad.offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            builder.report.note(ParseProblem(offset: Int64(bad.offset), line: line,
                                             message: "\(what) refused: \(field) is not valid UTF-8 (byte \(bad.offset)); the file is damaged there — export it again"))
            if !parts.isEmpty { refused.insert(parts.joined(separator: "/")) }
        }
        return refused
    }

    // MARK: - Metrics

    /// The aggregation period of this export: the finest alignment shared by the points of
    /// every metric that is aggregated at all (a metric with a point carrying seconds holds
    /// single readings and is left out). One setting applies to the whole export, so
    /// inferring it over all metrics is steadier than per metric. Nil when no metric is
    /// aggregated.
    static func filePeriod(_ metrics: [JSONValue]) -> AggregationPeriod? {
        var result: AggregationPeriod?
        for metric in metrics {
            guard let name = metric["name"]?.stringValue, AutoExportNames.type(for: name) != "sleepAnalysis",
                  let period = metricPeriod(metric) else { continue }
            result = result.map { min($0, period) } ?? period
        }
        return result
    }

    /// The common alignment of one metric's `date`s, or nil when it holds single readings.
    static func metricPeriod(_ metric: JSONValue) -> AggregationPeriod? {
        let points = metric["data"]?.arrayValue ?? []
        if points.contains(where: { $0["startDate"] != nil }) { return nil }
        let times = points.lazy.compactMap { $0["date"]?.stringValue }.compactMap { TimestampParser.parse($0) }
        return AggregationPeriod.common(times)
    }

    static func readMetric(_ metric: JSONValue, index: Int, filePeriod: AggregationPeriod?,
                           into builder: inout AutoExportSampleBuilder) throws {
        guard let name = metric["name"]?.stringValue, !name.isEmpty else {
            builder.note("metric \(index + 1): no \"name\"; skipped")
            return
        }
        guard let points = metric["data"]?.arrayValue else {
            if metric["data"]?.isNull ?? true { return }   // a metric without data: nothing to read
            builder.note("metric \(name): \"data\" is not an array; skipped")
            return
        }
        let units = metric["units"]?.stringValue ?? ""
        let type = AutoExportNames.type(for: name)
        let period = metricPeriod(metric) == nil ? nil : filePeriod
        for (n, point) in points.enumerated() where !builder.isRefused("metrics", index, n) {
            do {
                if type == "sleepAnalysis" {
                    try readSleep(point, units: units, into: &builder)
                } else {
                    try readPoint(point, type: type, units: units, period: period, into: &builder)
                }
            } catch let r as AutoExportSampleBuilder.Rejection {
                builder.note("metric \(name), point \(n + 1): \(r.reason)")
            }
        }
    }

    /// One point of an ordinary metric: `qty` (or `Avg` with `Min`/`Max`), or `systolic` and
    /// `diastolic` for blood pressure.
    static func readPoint(_ p: JSONValue, type: String, units: String, period: AggregationPeriod?,
                          into builder: inout AutoExportSampleBuilder) throws {
        guard let members = p.objectValue else { throw AutoExportSampleBuilder.Rejection(reason: "expected an object") }
        let (start, end) = try interval(of: p, period: period)
        let revisable = period != nil && p["startDate"] == nil
        let unit = p["units"]?.stringValue ?? units
        let source = p["source"]?.stringValue ?? AutoExportSampleBuilder.defaultSource
        var metadata: [String: String] = [:]
        for (k, v) in members where !pointFields.contains(k) {
            if let text = v.metadataText { metadata[k] = text }
        }
        if revisable, let period { metadata["aggregation"] = period.rawValue }

        let systolic = p["systolic"]?.doubleValue, diastolic = p["diastolic"]?.doubleValue
        if systolic != nil || diastolic != nil {
            let bpUnit = unit.isEmpty ? "mmHg" : unit
            if let systolic {
                try builder.emit(type: "bloodPressureSystolic", value: systolic, unit: bpUnit, start: start, end: end,
                                 source: source, metadata: metadata, revisable: revisable)
            }
            if let diastolic {
                try builder.emit(type: "bloodPressureDiastolic", value: diastolic, unit: bpUnit, start: start, end: end,
                                 source: source, metadata: metadata, revisable: revisable)
            }
            return
        }
        // Heart rate (and any metric summarized the same way): Avg is the value, Min and Max
        // go to metadata in the canonical unit.
        let avg = (p["Avg"] ?? p["avg"])?.doubleValue
        guard let value = avg ?? p["qty"]?.doubleValue else {
            throw AutoExportSampleBuilder.Rejection(reason: "no numeric \"qty\" (or \"Avg\")")
        }
        for (key, field) in [("min", p["Min"] ?? p["min"]), ("max", p["Max"] ?? p["max"])] {
            if let v = field?.doubleValue, v.isFinite {
                metadata[key] = SampleIdentity.canonicalNumber(UnitConversion.toCanonical(v, unit: unit, type: type).0)
            }
        }
        try builder.emit(type: type, value: value, unit: unit, start: start, end: end, source: source,
                         metadata: metadata, revisable: revisable)
    }

    /// A point's interval: `startDate`/`endDate` when given, else `date` plus the period.
    static func interval(of p: JSONValue, period: AggregationPeriod?) throws -> (Timestamp, Timestamp) {
        if let startText = p["startDate"]?.stringValue {
            let start = try date(startText, field: "startDate")
            let end = try p["endDate"]?.stringValue.map { try date($0, field: "endDate") } ?? start
            guard end >= start else { throw AutoExportSampleBuilder.Rejection(reason: "\"endDate\" is before \"startDate\"") }
            return (start, end)
        }
        guard let text = p["date"]?.stringValue else { throw AutoExportSampleBuilder.Rejection(reason: "no \"date\"") }
        let start = try date(text, field: "date")
        return (start, period.map { start.adding(millis: $0.millis) } ?? start)
    }

    /// Parses one of HAE's dates (24- or 12-hour, with the phone's offset).
    static func date(_ text: String, field: String, defaultOffsetSeconds: Int32 = 0) throws -> Timestamp {
        guard let t = TimestampParser.parse(text, defaultOffsetSeconds: defaultOffsetSeconds) else {
            throw AutoExportSampleBuilder.Rejection(reason: "\"\(field)\" '\(text)' is not a date (expected e.g. 2024-09-28 16:51:59 +1000 or 2024-09-28 4:51:59 pm +1000)")
        }
        return t
    }
}
