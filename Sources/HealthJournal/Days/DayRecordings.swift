import HealthSpoolCore
import HealthSpoolStore

/// A day's workout routes and ECGs, as the day view shows them: each route put back together
/// from its parts (in point order), measured and drawn; each ECG with its strip and its
/// classification in plain words.
public struct DayRecordings: Sendable {
    /// One workout's route.
    public struct Route: Sendable {
        /// The workout's sample id, when the export named it.
        public var workoutID: String?
        public var start: Timestamp
        public var end: Timestamp
        public var summary: RouteSummary
        /// Drawn for display (thinned); the stored route keeps every point.
        public var shape: RouteShape
    }

    /// One ECG recording.
    public struct ECG: Sendable {
        public var start: Timestamp
        public var classification: ECGClassification
        /// As the export wrote it (shown beside the plain words when they differ).
        public var classificationText: String
        public var averageHeartRate: Double?
        public var symptoms: String?
        public var lead: String?
        public var sampleRateHz: Double
        public var voltageCount: Int
        public var strip: ECGStrip
    }

    public var routes: [Route]
    public var ecgs: [ECG]

    public var isEmpty: Bool { routes.isEmpty && ecgs.isEmpty }

    /// The routes and ECGs starting in `from..<to` (UTC ms). `stripSeconds`: seconds a strip row.
    /// `routes: false` reads the ECGs alone (the doctor's summary).
    public static func read(_ store: SampleStore, from: Int64, to: Int64, stripSeconds: Int = 10, routes withRoutes: Bool = true) throws -> DayRecordings {
        // A route's parts share their workout (or file); each group is one route, parts in order.
        var groups: [String: [RecordedSample]] = [:]
        var order: [String] = []
        // Parts of a route that started the day before are read too (a run past midnight).
        for part in withRoutes ? try store.recordings(type: "workoutRoute", from: from - 86_400_000, to: to) : [] {
            let key = part.metadata["workoutId"] ?? part.metadata["file"] ?? "\(part.source)@\(part.metadata["workoutStart"] ?? "")"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(part)
        }
        var routes: [Route] = []
        for key in order {
            let parts = groups[key]!.sorted { Int($0.metadata["firstPoint"] ?? "") ?? 0 < Int($1.metadata["firstPoint"] ?? "") ?? 0 }
            let points = parts.flatMap { RoutePoint.decode($0.metadata["points"] ?? "") ?? [] }
            guard let first = points.first, first.millis >= from, first.millis < to else { continue }
            routes.append(Route(workoutID: parts[0].metadata["workoutId"], start: parts.map(\.start).min()!, end: parts.map(\.end).max()!,
                                summary: RouteSummary(points), shape: RouteShape(points)))
        }
        let ecgs: [ECG] = try store.recordings(type: "electrocardiogram", from: from, to: to).map { e in
            let text = e.metadata["classification"] ?? ""
            let rate = Double(e.metadata["sampleRateHz"] ?? "") ?? 0
            let volts = ECGVoltages.decode(e.metadata["voltages"] ?? "") ?? []
            return ECG(start: e.start, classification: ECGClassification(rawValue: e.metadata["classificationCode"] ?? "") ?? ECGClassification(text: text),
                       classificationText: text, averageHeartRate: e.value > 0 ? e.value : nil,
                       symptoms: e.metadata["symptoms"].flatMap { $0.isEmpty ? nil : $0 }, lead: e.metadata["lead"].flatMap { $0.isEmpty ? nil : $0 },
                       sampleRateHz: rate, voltageCount: volts.count,
                       strip: ECGStrip(microvolts: volts, sampleRateHz: rate, rowSeconds: stripSeconds))
        }
        return DayRecordings(routes: routes, ecgs: ecgs)
    }

    /// The JSON form (`healthspool day --json`: `routes`, `ecgs`).
    public var json: [(String, JSONValue)] {
        func n(_ v: Double?) -> JSONValue { v.map { .number(($0 * 100).rounded() / 100) } ?? .null }
        return [
            ("routes", .array(routes.map { r in
                .object([("workoutId", r.workoutID.map(JSONValue.string) ?? .null), ("start", .string(r.start.iso8601Local)),
                         ("end", .string(r.end.iso8601Local)), ("points", .number(Double(r.summary.pointCount))),
                         ("distanceKm", n(r.summary.distanceMetres / 1000)), ("durationSeconds", n(r.summary.durationSeconds)),
                         ("elevationGainM", n(r.summary.elevationGainMetres)), ("paceSecondsPerKm", n(r.summary.secondsPerKilometre))])
            })),
            ("ecgs", .array(ecgs.map { e in
                .object([("start", .string(e.start.iso8601Local)), ("classification", .string(e.classificationText)),
                         ("classificationCode", .string(e.classification.rawValue)), ("plainWords", .string(e.classification.plainWords)),
                         ("advice", e.classification.advice.map(JSONValue.string) ?? .null), ("averageHeartRate", n(e.averageHeartRate)),
                         ("symptoms", e.symptoms.map(JSONValue.string) ?? .null), ("lead", e.lead.map(JSONValue.string) ?? .null),
                         ("sampleRateHz", n(e.sampleRateHz)), ("voltages", .number(Double(e.voltageCount)))])
            })),
        ]
    }

    /// The terminal lines (`healthspool day`).
    public func text(style: NumberStyle) -> [String] {
        var lines: [String] = []
        for r in routes {
            let s = r.summary
            var parts = ["Route \(r.start.iso8601Local.dropFirst(11).prefix(5))", style.fixed(s.distanceMetres / 1000, digits: 2) + " km",
                         Self.duration(s.durationSeconds)]
            if let gain = s.elevationGainMetres { parts.append("\(style.count(gain)) m climbed") }
            if let pace = s.secondsPerKilometre { parts.append(Self.pace(pace)) }
            lines.append(parts.joined(separator: ", "))
        }
        for e in ecgs {
            var line = "ECG \(e.start.iso8601Local.dropFirst(11).prefix(5)): \(e.classification.plainWords)"
            if e.classification == .unrecognized, !e.classificationText.isEmpty { line += " (\(e.classificationText))" }
            if let hr = e.averageHeartRate { line += " Average \(style.count(hr)) bpm." }
            lines.append(line)
            if let advice = e.classification.advice { lines.append("  " + advice) }
        }
        return lines
    }

    /// 2537 → "42 min 17 s"; 4000 → "1 h 6 min".
    public static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600) h \(s % 3600 / 60) min" : "\(s / 60) min \(s % 60) s"
    }

    /// 335 → "5:35 /km".
    public static func pace(_ secondsPerKm: Double) -> String {
        let s = Int(secondsPerKm.rounded())
        return "\(s / 60):\(String(repeating: "0", count: s % 60 < 10 ? 1 : 0))\(s % 60) /km"
    }
}
