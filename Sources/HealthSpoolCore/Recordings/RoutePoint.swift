/// One point of a workout route: where and when, with what the GPS said about it.
///
/// A `workoutRoute` sample carries up to `RoutePoint.perSample` points in its `points` metadata,
/// as JSON text: `[[millis, lat, lon, ele, speed, course, hAcc, vAcc], …]`, `null` for a field
/// the source did not give (docs/formats.md, "Workout routes").
public struct RoutePoint: Sendable, Equatable {
    /// Milliseconds since the epoch.
    public var millis: Int64
    /// Degrees, WGS 84.
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level.
    public var elevation: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees from north.
    public var course: Double?
    /// Horizontal and vertical accuracy, metres.
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?

    public init(millis: Int64, latitude: Double, longitude: Double, elevation: Double? = nil, speed: Double? = nil,
                course: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil) {
        self.millis = millis
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
    }

    /// Points per `workoutRoute` sample: a marathon's 15,000 points go in 30 samples of about
    /// 40 KB each, far below any gateway's body limit.
    public static let perSample = 500

    /// Whether the coordinates are a place on Earth.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// The `points` metadata text for `points`.
    public static func encode(_ points: some Collection<RoutePoint>) -> String {
        var w = JSONWriter(capacity: points.count * 72 + 2)
        w.raw("[")
        for (n, p) in points.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("[")
            w.number(p.millis)
            for v in [p.latitude, p.longitude] as [Double?] + [p.elevation, p.speed, p.course, p.horizontalAccuracy, p.verticalAccuracy] {
                w.raw(",")
                if let v, v.isFinite { w.number(v) } else { w.raw("null") }
            }
            w.raw("]")
        }
        w.raw("]")
        return w.text
    }

    /// The points of a `points` metadata text; nil when it is not that shape.
    public static func decode(_ text: String) -> [RoutePoint]? {
        guard let items = (try? JSONParser.parse(text))?.arrayValue else { return nil }
        var out: [RoutePoint] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let a = item.arrayValue, a.count >= 3, let t = a[0].doubleValue, let lat = a[1].doubleValue,
                  let lon = a[2].doubleValue, t.isFinite, abs(t) < 1e15 else { return nil }
            func at(_ i: Int) -> Double? { i < a.count ? a[i].doubleValue : nil }
            out.append(RoutePoint(millis: Int64(t), latitude: lat, longitude: lon, elevation: at(3), speed: at(4),
                                  course: at(5), horizontalAccuracy: at(6), verticalAccuracy: at(7)))
        }
        return out
    }
}
