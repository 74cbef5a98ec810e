import HealthSpoolCore

extension AutoExportParser {
    /// Workout members read into the sample itself rather than metadata.
    static let workoutFields: Set<String> = ["name", "start", "end", "duration", "id", "source"]

    /// One workout, in the older flat shape (`activeEnergy{qty,units}`, `distance`, …) or the
    /// newer one (`id`, `duration` in seconds, `activeEnergyBurned`, `heartRateData[]`,
    /// `route[]`, …): type `workout`, value = duration in minutes, summary in metadata.
    static func readWorkout(_ w: JSONValue, into builder: inout AutoExportSampleBuilder) throws {
        guard let members = w.objectValue else { throw AutoExportSampleBuilder.Rejection(reason: "expected an object") }
        guard let startText = w["start"]?.stringValue else { throw AutoExportSampleBuilder.Rejection(reason: "no \"start\"") }
        let start = try date(startText, field: "start")
        let end = try w["end"]?.stringValue.map { try date($0, field: "end") } ?? start
        guard end >= start else { throw AutoExportSampleBuilder.Rejection(reason: "\"end\" is before \"start\"") }

        var minutes = Double(end.millis - start.millis) / 60_000
        var metadata: [String: String] = [:]
        if let d = w["duration"] {
            if let seconds = d.doubleValue, seconds.isFinite {
                minutes = seconds / 60
            } else if let qty = d["qty"]?.doubleValue, qty.isFinite {
                minutes = UnitConversion.convert(qty, from: d["units"]?.stringValue ?? "s", to: "min") ?? qty / 60
            }
        }
        if let name = w["name"]?.stringValue { metadata["workoutName"] = name }
        if let id = w["id"]?.stringValue { metadata["workoutId"] = id }
        for (key, value) in members where !workoutFields.contains(key) {
            summarize(key, value, into: &metadata)
        }
        // The two totals most readers want, in the registry's units whatever the phone's locale.
        if let e = w["activeEnergyBurned"] ?? w["activeEnergy"], let kcal = quantity(e, in: "kcal") {
            metadata["activeEnergyKcal"] = SampleIdentity.canonicalNumber(kcal)
        }
        if let d = w["distance"], let km = quantity(d, in: "km") {
            metadata["distanceKm"] = SampleIdentity.canonicalNumber(km)
        }
        let source = w["source"]?.stringValue ?? AutoExportSampleBuilder.defaultSource
        let id = try builder.emit(type: "workout", value: minutes, unit: "min", start: start, end: end,
                                  source: source, metadata: metadata, revisable: false)
        if let route = w["route"]?.arrayValue, !route.isEmpty {
            try readRoute(route, link: RouteLink(workoutID: id, workoutStart: start, source: SampleSource(name: source),
                                                 utcOffsetSeconds: start.utcOffsetSeconds), into: &builder)
        }
    }

    /// `{qty, units}` converted to `unit`, when the conversion is known.
    static func quantity(_ v: JSONValue, in unit: String) -> Double? {
        guard let qty = v["qty"]?.doubleValue, qty.isFinite else { return nil }
        return UnitConversion.convert(qty, from: v["units"]?.stringValue ?? unit, to: unit)
    }

    /// Flattens one workout member into metadata: scalars as they are; `{qty, units}` as
    /// `key` and `keyUnit`; objects of those (`heartRate{min,avg,max}`, `elevation{ascent,…}`)
    /// as `keyMin`, `keyAscent`, …; arrays (`route`, `heartRateData`) as `keyCount`, and heart
    /// rate series also as `keyMin`/`keyAvg`/`keyMax`.
    static func summarize(_ key: String, _ value: JSONValue, into metadata: inout [String: String]) {
        switch value {
        case .string, .number, .bool:
            metadata[key] = value.metadataText
        case let .object(members):
            if let qty = value["qty"]?.metadataText {
                metadata[key] = qty
                if let u = value["units"]?.stringValue { metadata[key + "Unit"] = u }
                return
            }
            for (sub, v) in members {
                let name = key + sub.prefix(1).uppercased() + sub.dropFirst()
                if let qty = v["qty"]?.metadataText {
                    metadata[name] = qty
                    if let u = v["units"]?.stringValue { metadata[name + "Unit"] = u }
                } else if sub == "units", let u = v.stringValue {
                    metadata[key + "Unit"] = u
                } else if let text = v.metadataText {
                    metadata[name] = text
                }
            }
        case let .array(items):
            metadata[key + "Count"] = String(items.count)
            if key.lowercased().hasPrefix("heartrate") {
                let avgs = items.compactMap { ($0["Avg"] ?? $0["avg"] ?? $0["qty"])?.doubleValue }
                let mins = items.compactMap { ($0["Min"] ?? $0["min"])?.doubleValue } + avgs
                let maxs = items.compactMap { ($0["Max"] ?? $0["max"])?.doubleValue } + avgs
                if !avgs.isEmpty {
                    metadata[key + "Avg"] = SampleIdentity.canonicalNumber(avgs.reduce(0, +) / Double(avgs.count))
                    metadata[key + "Min"] = SampleIdentity.canonicalNumber(mins.min()!)
                    metadata[key + "Max"] = SampleIdentity.canonicalNumber(maxs.max()!)
                }
            }
        case .null:
            break
        }
    }
}
