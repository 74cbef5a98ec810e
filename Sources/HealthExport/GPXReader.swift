import HealthSpoolCore

/// Reads a GPX 1.1 track (Apple Health's `workout-routes/route_*.gpx`, or any GPX with `trkpt`
/// or `rtept` points): each point's position, `time`, `ele`, and the `speed`, `course`, `hAcc`,
/// `vAcc` extensions, in file order, into `workoutRoute` samples (`RouteParts`).
///
/// A point without a valid position or time is noted with its line and skipped; a file that
/// ends inside a point or a tag is noted, and the points before are kept.
enum GPXReader {
    /// The root's start, within a side file's first bytes.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        ZipArchive.offset(of: "<gpx", in: head) != nil || ZipArchive.offset(of: ":gpx ", in: head) != nil
    }

    /// A point's child elements read.
    private static let fields: Set<String> = ["ele", "time", "speed", "course", "hAcc", "vAcc"]

    /// The point under construction.
    private struct Pending {
        var point: RoutePoint
        var time: Int64?
        var line: Int
    }

    /// Reads `stream` (the part `name`) to its end; returns the points read.
    @discardableResult
    static func read(_ stream: ByteStream, name: String, link: RouteLink, report: inout ParseReport,
                     emit: (consuming Sample) throws -> Void) throws -> Int {
        let reader = MarkupReader(stream)
        var parts = RouteParts(link: link, file: name)
        var pending: Pending?
        var field: String?
        var sawRoot = false
        var full = false
        func note(_ line: Int, _ message: String) {
            report.note(ParseProblem(line: line, message: "part '\(name)', line \(line): \(message)"))
        }
        reading: while true {
            let event: MarkupReader.Event
            do { event = try reader.next() } catch let d as MarkupReader.Damage {
                note(d.line, d.reason + "; the rest of the file is skipped")
                break
            }
            switch event {
            case let .open(tag, attributes, empty):
                if tag == "gpx" { sawRoot = true }
                if tag == "trkpt" || tag == "rtept" {
                    guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                          RoutePoint(millis: 0, latitude: lat, longitude: lon).isValid else {
                        note(reader.line, "a point without a valid lat/lon (\(attributes["lat"] ?? "none"), \(attributes["lon"] ?? "none")) skipped")
                        pending = nil
                        continue
                    }
                    pending = Pending(point: RoutePoint(millis: 0, latitude: lat, longitude: lon), line: reader.line)
                    if empty { note(reader.line, "a point without a time skipped"); pending = nil }
                } else if pending != nil, !empty, Self.fields.contains(tag) {
                    field = tag
                }
            case let .text(text):
                guard var p = pending, let f = field else { continue }
                let t = text  // MarkupReader gives text without the whitespace around it
                if f == "time" {
                    guard let ts = TimestampParser.parse(t) else { note(reader.line, "time '\(t.prefix(40))' is not a date"); continue }
                    p.time = ts.millis
                } else if let v = Double(t), v.isFinite {
                    switch f {
                    case "ele": p.point.elevation = v
                    // Apple writes -1 for "unknown" speed and course.
                    case "speed": p.point.speed = v >= 0 ? v : nil
                    case "course": p.point.course = v >= 0 ? v : nil
                    case "hAcc": p.point.horizontalAccuracy = v >= 0 ? v : nil
                    default: p.point.verticalAccuracy = v >= 0 ? v : nil
                    }
                }
                pending = p
            case let .close(tag):
                if tag == field { field = nil }
                guard tag == "trkpt" || tag == "rtept", let p = pending else { continue }
                pending = nil
                guard let t = p.time else { note(p.line, "a point without a time skipped"); continue }
                var point = p.point
                point.millis = t
                if !full, try !parts.add(point, emit: emit) {
                    full = true
                    note(p.line, "the route holds more than \(RouteParts.maxPoints) points; the rest are skipped")
                }
            case let .eof(insideMarkup):
                if !sawRoot { note(reader.line, "no <gpx> root: not a GPX file") }
                else if insideMarkup || pending != nil { note(reader.line, "the file ends inside \(pending != nil ? "a point" : "a tag") (cut short?); the points before are kept") }
                break reading
            }
        }
        try parts.finish(emit: emit)
        return parts.count
    }
}
