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

    /// An aggregated night: one `sleepAnalysis` sample (minutes asleep = `totalSleep` — or
    /// `qty`, as a CSV `Sleep Analysis (hr)` column gives it — else the sum of the asleep stages) with the stage totals in metadata, and one `timeInBed`
    /// sample. Both span the night's `date` (a whole day in the phone's offset) and are
    /// revisable, so a night exported again after the watch synced replaces its totals.
    static func readSleepNight(_ p: JSONValue, unit: String, into builder: inout AutoExportSampleBuilder) throws {
        func time(_ key: String) throws -> Timestamp? {
            try p[key]?.stringValue.map { try date($0, field: key) }
        }
        let sleepStart = try time("sleepStart"), sleepEnd = try time("sleepEnd")
        let inBedStart = try time("inBedStart"), inBedEnd = try time("inBedEnd")
        let offset = (sleepEnd ?? inBedEnd ?? sleepStart ?? inBedStart)?.utcOffsetSeconds ?? 0
        guard let dateText = p["date"]?.stringValue else { throw AutoExportSampleBuilder.Rejection(reason: "no \"date\" for the night") }
        let day = try date(dateText, field: "date", defaultOffsetSeconds: offset)
        let end = day.adding(millis: AggregationPeriod.day.millis)

        func minutes(_ hours: Double) -> Double { UnitConversion.convert(hours, from: unit, to: "min") ?? hours * 60 }
        var metadata: [String: String] = ["aggregation": "day"]
        for (field, key) in sleepStageFields {
            if let v = p[field]?.doubleValue, v.isFinite { metadata[key] = SampleIdentity.canonicalNumber(minutes(v)) }
        }
        for (key, t) in [("sleepStart", sleepStart), ("sleepEnd", sleepEnd), ("inBedStart", inBedStart), ("inBedEnd", inBedEnd)] {
            if let t { metadata[key] = t.iso8601Local }
        }
        let stages = ["asleep", "core", "deep", "rem"].compactMap { p[$0]?.doubleValue }
        let asleep = (p["totalSleep"] ?? p["qty"])?.doubleValue ?? (stages.isEmpty ? nil : stages.reduce(0, +))
        let source = p["source"]?.stringValue
        var emitted = false
        if let asleep, asleep > 0 {
            var m = metadata
            m["sleepStage"] = "asleep"
            try builder.emit(type: "sleepAnalysis", value: asleep, unit: unit, start: day, end: end,
                             source: source ?? p["sleepSource"]?.stringValue ?? AutoExportSampleBuilder.defaultSource,
                             metadata: m, revisable: true)
            emitted = true
        }
        if let inBed = p["inBed"]?.doubleValue, inBed > 0 {
            var m = metadata
            m["sleepStage"] = "inBed"
            try builder.emit(type: "timeInBed", value: inBed, unit: unit, start: day, end: end,
                             source: source ?? p["inBedSource"]?.stringValue ?? p["sleepSource"]?.stringValue ?? AutoExportSampleBuilder.defaultSource,
                             metadata: m, revisable: true)
            emitted = true
        }
        if !emitted { builder.ignore("sleep_analysis night with no sleep or in-bed time") }
    }
}
