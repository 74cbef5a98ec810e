import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// The day view's workout routes and ECGs (`day-recordings.mustache`), from `DayRecordings`:
/// a route as a trace drawn from its points (no map tiles, nothing fetched) with its distance,
/// time, climb and pace; an ECG as a strip on paper scale with its result in plain words.
struct DayRecordingCards: Sendable {
    struct Route: Sendable {
        let title: String
        let label: String
        let polyline: String
        let start: Marker?
        let end: Marker?
        let figures: [DayPage.Figure]
    }

    struct Marker: Sendable {
        let x: String
        let y: String
    }

    struct StripRow: Sendable {
        let y: String
        let polyline: String
        /// The seconds mark at the row's left edge.
        let label: String
        let labelY: String
    }

    struct ECG: Sendable {
        let title: String
        let result: String
        let asWritten: String?
        let advice: String?
        let attention: Bool
        let figures: [DayPage.Figure]
        let width: String
        let height: String
        let rows: [StripRow]
        let label: String
    }

    let routes: [Route]
    let ecgs: [ECG]

    init?(_ r: DayRecordings, style: NumberStyle, clock: (Int64) -> String) {
        guard !r.isEmpty else { return nil }
        routes = r.routes.map { route in
            let s = route.summary
            var figures = [
                DayPage.Figure(label: "Distance", id: nil, data: Hidden(name: "data-value", value: String((s.distanceMetres / 10).rounded() / 100)),
                               text: style.fixed(s.distanceMetres / 1000, digits: 2) + " km"),
                DayPage.Figure(label: "Time", id: nil, data: nil, text: DayRecordings.duration(s.durationSeconds)),
            ]
            if let gain = s.elevationGainMetres { figures.append(DayPage.Figure(label: "Climbed", id: nil, data: nil, text: "\(style.count(gain)) m")) }
            if let pace = s.secondsPerKilometre { figures.append(DayPage.Figure(label: "Pace", id: nil, data: nil, text: DayRecordings.pace(pace))) }
            let points = route.shape.points
            let time = clock(route.start.millis)
            return Route(title: "Route at \(time)",
                         label: "The route of the workout at \(time), drawn from \(s.pointCount) GPS points, north up.",
                         polyline: route.shape.polyline,
                         start: points.first.map { Marker(x: RouteShapeText.tenth($0.x), y: RouteShapeText.tenth($0.y)) },
                         end: points.last.map { Marker(x: RouteShapeText.tenth($0.x), y: RouteShapeText.tenth($0.y)) },
                         figures: figures)
        }
        ecgs = r.ecgs.map { e in
            var figures: [DayPage.Figure] = []
            if let hr = e.averageHeartRate {
                figures.append(DayPage.Figure(label: "Average heart rate", id: nil, data: Hidden(name: "data-value", value: String(Int(hr))), text: "\(style.count(hr)) bpm"))
            }
            if let s = e.symptoms { figures.append(DayPage.Figure(label: "Symptoms", id: nil, data: nil, text: s)) }
            if let lead = e.lead { figures.append(DayPage.Figure(label: "Lead", id: nil, data: nil, text: lead)) }
            figures.append(DayPage.Figure(label: "Recording", id: nil, data: nil,
                                          text: "\(style.count(Double(e.voltageCount) / max(1, e.sampleRateHz))) s at \(style.count(e.sampleRateHz)) Hz"))
            let rowHeight = ECGStrip.rowHeight
            let rows = e.strip.rows.enumerated().map { n, row in
                StripRow(y: RouteShapeText.tenth(Double(n) * (rowHeight + 4)), polyline: row.polyline, label: "\(row.startSecond) s",
                         labelY: RouteShapeText.tenth(Double(n) * (rowHeight + 4) + 3.2))
            }
            let time = clock(e.start.millis)
            let written = e.classificationText
            return ECG(title: "ECG at \(time)", result: e.classification.plainWords,
                       asWritten: written.isEmpty || e.classification != .unrecognized ? nil : "The watch’s result, as written: \(written).",
                       advice: e.classification.advice, attention: e.classification.needsAttention, figures: figures,
                       width: RouteShapeText.tenth(e.strip.rowWidth),
                       height: RouteShapeText.tenth(Double(rows.count) * (rowHeight + 4)),
                       rows: rows,
                       label: "ECG strip of \(time) at 25 mm a second and 10 mm a millivolt, on a 1 mm grid: \(e.classification.plainWords)")
        }
    }
}

/// Numbers for SVG attributes.
enum RouteShapeText {
    static func tenth(_ v: Double) -> String {
        let t = (v * 10).rounded() / 10
        return t == t.rounded() ? String(Int(t)) : String(t)
    }
}
