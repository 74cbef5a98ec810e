import HealthSpoolCore

/// Health Auto Export's workout `route[]` and its `ecg` section: the same `workoutRoute` and
/// `electrocardiogram` samples as an Apple export's GPX and CSV files give.
extension AutoExportParser {
    /// A workout's `route[]`: `{latitude, longitude, altitude, timestamp, speed, course,
    /// horizontalAccuracy, verticalAccuracy}` (older versions: `lat`, `lon`), in order.
    static func readRoute(_ items: [JSONValue], link: RouteLink, into builder: inout AutoExportSampleBuilder) throws {
        var parts = RouteParts(link: link, file: nil)
        var skipped = 0
        for item in items {
            guard let lat = (item["latitude"] ?? item["lat"])?.doubleValue, let lon = (item["longitude"] ?? item["lon"])?.doubleValue,
                  let text = (item["timestamp"] ?? item["date"])?.stringValue, let at = TimestampParser.parse(text) else {
                skipped += 1
                continue
            }
            func nonNegative(_ key: String) -> Double? { item[key]?.doubleValue.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }
            let p = RoutePoint(millis: at.millis, latitude: lat, longitude: lon,
                               elevation: (item["altitude"] ?? item["elevation"])?.doubleValue,
                               speed: nonNegative("speed"), course: nonNegative("course"),
                               horizontalAccuracy: nonNegative("horizontalAccuracy"), verticalAccuracy: nonNegative("verticalAccuracy"))
            guard p.isValid else { skipped += 1; continue }
            guard try parts.add(p, emit: { try builder.emit($0) }) else { break }
        }
        try parts.finish { try builder.emit($0) }
        if skipped > 0 { builder.note("workout route: \(skipped) points without a position or time skipped") }
    }

    /// One `ecg` entry: `{start, end, classification, averageHeartRate, samplingFrequency,
    /// source, voltageMeasurements: [{date, voltage, units}] | [number]}`; volts and millivolts
    /// become microvolts.
    static func readECG(_ e: JSONValue, into builder: inout AutoExportSampleBuilder) throws {
        guard let startText = (e["start"] ?? e["date"])?.stringValue else { throw AutoExportSampleBuilder.Rejection(reason: "no \"start\"") }
        let start = try date(startText, field: "start")
        guard let rate = (e["samplingFrequency"] ?? e["sampleRate"])?.doubleValue, rate > 0, rate <= 10_000 else {
            throw AutoExportSampleBuilder.Rejection(reason: "no \"samplingFrequency\"")
        }
        let items = (e["voltageMeasurements"] ?? e["voltages"])?.arrayValue ?? []
        guard items.count >= 2 else { throw AutoExportSampleBuilder.Rejection(reason: "no \"voltageMeasurements\"") }
        guard items.count <= ECGVoltages.maxCount else {
            throw AutoExportSampleBuilder.Rejection(reason: "more than \(ECGVoltages.maxCount) voltages")
        }
        var microvolts: [Double] = []
        microvolts.reserveCapacity(items.count)
        for item in items {
            let v = item.doubleValue ?? (item["voltage"] ?? item["qty"])?.doubleValue
            guard let v, v.isFinite else { throw AutoExportSampleBuilder.Rejection(reason: "a voltage that is not a number") }
            let unit = item["units"]?.stringValue ?? e["units"]?.stringValue ?? "µV"
            switch unit.lowercased() {
            case "v": microvolts.append(v * 1_000_000)
            case "mv": microvolts.append(v * 1_000)
            default: microvolts.append(v)
            }
        }
        var rec = ECGRecording(start: start, source: SampleSource(name: e["source"]?.stringValue ?? AutoExportSampleBuilder.defaultSource))
        rec.classification = e["classification"]?.stringValue ?? ""
        rec.symptoms = e["symptoms"]?.stringValue ?? (e["symptoms"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? "")
        rec.lead = e["lead"]?.stringValue ?? ""
        rec.sampleRateHz = rate
        rec.microvolts = microvolts
        rec.averageHeartRate = (e["averageHeartRate"]?.doubleValue ?? e["averageHeartRate"]?["qty"]?.doubleValue).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        try builder.emit(rec.sample())
    }
}
