import HealthSpoolCore

/// Health Auto Export (iOS app) JSON and CSV. See docs/formats.md, "Health Auto Export", for
/// the mapping, the units and the aggregation/revision rule.
public enum AutoExportParser {
    static let jsonFormat = "Health Auto Export JSON"

    /// Sections of `data` that hold no health samples healthspool stores; counted as ignored.
    static let otherSections = ["stateOfMind", "medications", "symptoms", "cycleTracking", "ecg", "heartRateNotifications"]

    /// Point members read into the value or the interval; the other scalars become metadata.
    static let pointFields: Set<String> = [
        "date", "qty", "source", "units", "Min", "Avg", "Max", "min", "avg", "max",
        "systolic", "diastolic", "startDate", "endDate",
    ]

    /// Parses Health Auto Export JSON (`data.metrics[]`, `data.workouts[]`).
    public static func parseJSON(_ input: [UInt8], into sink: SampleSink) throws -> ParseReport {
        let bytes = input.withoutByteOrderMark
        let doc: JSONValue
        do {
            doc = try JSONParser.parse(bytes)
        } catch let e as JSONSyntaxError {
            throw ImportError.malformedJSON(e, format: jsonFormat, in: bytes,
                                            hint: "the file is not complete JSON (cut short while syncing?) — export it again")
        }
        let data = doc["data"] ?? doc
        let metrics = data["metrics"], workouts = data["workouts"]
        guard data.objectValue != nil, metrics != nil || workouts != nil else {
            throw ImportError.malformed(format: jsonFormat, line: nil, offset: nil,
                                        reason: "expected {\"data\": {\"metrics\": [...], \"workouts\": [...]}} but found neither \"metrics\" nor \"workouts\"")
        }
        for (key, section) in [("metrics", metrics), ("workouts", workouts)] {
            if let section, section.arrayValue == nil, !section.isNull {
                throw ImportError.malformed(format: jsonFormat, line: nil, offset: nil, reason: "\"data.\(key)\" must be an array")
            }
        }
        var builder = AutoExportSampleBuilder(sink: sink)
        let metricList = metrics?.arrayValue ?? []
        let period = filePeriod(metricList)
        for (n, metric) in metricList.enumerated() {
            try readMetric(metric, index: n, filePeriod: period, into: &builder)
        }
        for (n, workout) in (workouts?.arrayValue ?? []).enumerated() {
            do { try readWorkout(workout, into: &builder) }
            catch let r as AutoExportSampleBuilder.Rejection { builder.note("workout \(n + 1): \(r.reason)") }
        }
        for key in otherSections {
            if let items = data[key]?.arrayValue, !items.isEmpty { builder.ignore("\(key) (not imported)", count: items.count) }
        }
        return builder.report
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
        for (n, point) in points.enumerated() {
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
