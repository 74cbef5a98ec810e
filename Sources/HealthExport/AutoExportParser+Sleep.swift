import HealthSpoolCore

extension AutoExportParser {
    /// Stage totals of an aggregated night, as HAE names them, and the metadata keys they
    /// are kept under (in minutes).
    static let sleepStageFields: [(field: String, key: String)] = [
        ("core", "coreMinutes"), ("deep", "deepMinutes"), ("rem", "remMinutes"),
        ("awake", "awakeMinutes"), ("asleep", "asleepMinutes"), ("inBed", "inBedMinutes"),
    ]

    /// One `sleep_analysis` point: a segment (`startDate`, `endDate`, `value` stage, `qty`
    /// hours) when sleep aggregation is off, or one night's totals when it is on.
    static func readSleep(_ p: JSONValue, units: String, into builder: inout AutoExportSampleBuilder) throws {
        guard p.objectValue != nil else { throw AutoExportSampleBuilder.Rejection(reason: "expected an object") }
        let unit = units.isEmpty ? "hr" : units
        if p["startDate"] != nil {
            try readSleepSegment(p, unit: unit, into: &builder)
        } else {
            try readSleepNight(p, unit: unit, into: &builder)
        }
    }

    /// A segment: one sample in minutes with `sleepStage`; `In Bed` segments are `timeInBed`.
    /// Segments are HealthKit samples that never change, so they are not revisable.
    static func readSleepSegment(_ p: JSONValue, unit: String, into builder: inout AutoExportSampleBuilder) throws {
        let (start, end) = try interval(of: p, period: nil)
        let stage = AutoExportNames.sleepStage(p["value"]?.stringValue ?? "asleep")
        let source = p["source"]?.stringValue ?? AutoExportSampleBuilder.defaultSource
        let type = stage == "inBed" ? "timeInBed" : "sleepAnalysis"
        if let qty = p["qty"]?.doubleValue {
            try builder.emit(type: type, value: qty, unit: unit, start: start, end: end, source: source,
                             metadata: ["sleepStage": stage], revisable: false)
        } else {
            try builder.emit(type: type, value: Double(end.millis - start.millis) / 60_000, unit: "min", start: start, end: end,
                             source: source, metadata: ["sleepStage": stage], revisable: false)
        }
    }

    /// An aggregated night: one `sleepAnalysis` sample (minutes asleep) with the stage totals in
    /// metadata, and one `timeInBed` sample (`inBed`). Both are revisable, so a night exported
    /// again after the watch synced replaces its totals.
    ///
    /// The asleep total is `totalSleep` (or `qty`, as a CSV `Sleep Analysis (hr)` column gives
    /// it), else `asleep` and the stages as `asleepTotal` reads them (a total in older files, the
    /// unstaged part in newer ones), else the sum of the stages. The night spans
    /// `sleepStart`…`sleepEnd` (`inBedStart`…`inBedEnd` for time in bed; without those, the asleep
    /// span, marked `inBedSpan` = `sleep`), or the day of `date` when those are missing; a total
    /// longer than its span is cut to the span (invariant: a night never holds more sleep than its
    /// time), the figure as written kept in metadata.
    static func readSleepNight(_ p: JSONValue, unit: String, into builder: inout AutoExportSampleBuilder) throws {
        func time(_ key: String) throws -> Timestamp? {
            try p[key]?.stringValue.map { try date($0, field: key) }
        }
        let sleepStart = try time("sleepStart"), sleepEnd = try time("sleepEnd")
        let inBedStart = try time("inBedStart"), inBedEnd = try time("inBedEnd")
        let offset = (sleepEnd ?? inBedEnd ?? sleepStart ?? inBedStart)?.utcOffsetSeconds ?? 0
        guard let dateText = p["date"]?.stringValue else { throw AutoExportSampleBuilder.Rejection(reason: "no \"date\" for the night") }
        let day = try date(dateText, field: "date", defaultOffsetSeconds: offset)
        let dayEnd = day.adding(millis: AggregationPeriod.day.millis)

        func minutes(_ v: Double) -> Double {
            UnitConversion.rounded(UnitConversion.convert(v, from: unit, to: "min") ?? v * 60, significantDigits: 12)
        }
        var metadata: [String: String] = ["aggregation": "day"]
        for (field, key) in sleepStageFields {
            if let v = p[field]?.doubleValue, v.isFinite { metadata[key] = SampleIdentity.canonicalNumber(minutes(v)) }
        }
        for (key, t) in [("sleepStart", sleepStart), ("sleepEnd", sleepEnd), ("inBedStart", inBedStart), ("inBedEnd", inBedEnd)] {
            if let t { metadata[key] = t.iso8601Local }
        }
        let stages = ["core", "deep", "rem"].compactMap { p[$0]?.doubleValue }.filter(\.isFinite)
        let room = (span(sleepStart, sleepEnd) ?? span(inBedStart, inBedEnd)).map { Double($0.1.millis - $0.0.millis) / 60_000 } ?? 24 * 60
        let asleep = (p["totalSleep"] ?? p["qty"])?.doubleValue
            ?? asleepTotal(asleep: p["asleep"]?.doubleValue, staged: stages.isEmpty ? nil : stages.reduce(0, +), roomMinutes: room, minutes: minutes)
        let source = p["source"]?.stringValue
        var emitted = false
        if let asleep, asleep > 0 {
            var m = metadata
            m["sleepStage"] = "asleep"
            try emitNight(type: "sleepAnalysis", total: asleep, unit: unit, span: span(sleepStart, sleepEnd) ?? (day, dayEnd),
                          source: source ?? p["sleepSource"]?.stringValue ?? AutoExportSampleBuilder.defaultSource,
                          metadata: m, into: &builder)
            emitted = true
        }
        if let inBed = p["inBed"]?.doubleValue, inBed > 0 {
            var m = metadata
            m["sleepStage"] = "inBed"
            // Without its own times, in bed spans the asleep span: at least it, never more than the night.
            var bedSpan = span(inBedStart, inBedEnd)
            if bedSpan == nil, let asleepSpan = span(sleepStart, sleepEnd) {
                bedSpan = asleepSpan
                m["inBedSpan"] = "sleep"
            }
            try emitNight(type: "timeInBed", total: inBed, unit: unit, span: bedSpan ?? (day, dayEnd),
                          source: source ?? p["inBedSource"]?.stringValue ?? p["sleepSource"]?.stringValue ?? AutoExportSampleBuilder.defaultSource,
                          metadata: m, into: &builder)
            emitted = true
        }
        if !emitted { builder.ignore("sleep_analysis night with no sleep or in-bed time") }
    }

    /// The night's asleep total from `asleep` and the sum of core, deep and REM (`staged`), both
    /// in the file's unit, when no `totalSleep` is given.
    ///
    /// Older files give `asleep` as the total, the stages its breakdown (their sum no larger than
    /// it); newer ones give it as the unstaged part beside the stages. Told apart by the data:
    /// stages larger than `asleep` whose sum with it fits in the night (`roomMinutes`, its span, or
    /// a day without times) are the newer shape, the total their sum; stages larger than `asleep`
    /// that do not fit with it count alone.
    static func asleepTotal(asleep: Double?, staged: Double?, roomMinutes: Double, minutes: (Double) -> Double) -> Double? {
        let asleep = asleep.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        guard let staged, staged > 0 else { return asleep }
        guard let asleep, staged > asleep else { return asleep ?? staged }
        return minutes(asleep + staged) <= roomMinutes + 1 ? asleep + staged : staged
    }

    /// `start`…`end` when both are given and in order.
    static func span(_ start: Timestamp?, _ end: Timestamp?) -> (Timestamp, Timestamp)? {
        guard let start, let end, end > start else { return nil }
        return (start, end)
    }

    /// One night total in minutes over `span`, never longer than the span.
    static func emitNight(type: String, total: Double, unit: String, span: (Timestamp, Timestamp), source: String,
                          metadata: [String: String], into builder: inout AutoExportSampleBuilder) throws {
        guard total.isFinite else { throw AutoExportSampleBuilder.Rejection(reason: "\(type): value is not a number") }
        guard let written = UnitConversion.convert(total, from: unit, to: "min") else {
            throw AutoExportSampleBuilder.Rejection(reason: "\(type): unit '\(unit)' cannot be converted to min")
        }
        var m = metadata
        if UnitConversion.normalize(unit) != "min" {
            m["originalUnit"] = unit
            m["originalValue"] = SampleIdentity.canonicalNumber(total)
        }
        let spanMinutes = Double(span.1.millis - span.0.millis) / 60_000
        var value = written
        if value > spanMinutes {
            m["reportedMinutes"] = SampleIdentity.canonicalNumber(written)
            value = UnitConversion.rounded(spanMinutes, significantDigits: 12)
        }
        try builder.emit(type: type, value: value, unit: "min", start: span.0, end: span.1, source: source,
                         metadata: m, revisable: true)
    }
}
