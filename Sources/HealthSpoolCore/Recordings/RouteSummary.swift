#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a route comes to: distance, duration, elevation gain and pace, from its points.
public struct RouteSummary: Sendable, Equatable {
    /// Metres along the points (great-circle between neighbours).
    public var distanceMetres: Double
    /// From the first point's time to the last's.
    public var durationSeconds: Double
    /// Metres climbed: the sum of rises between neighbours, after ignoring changes smaller
    /// than `elevationNoise` (GPS altitude jitters by a metre or two).
    public var elevationGainMetres: Double?
    public var pointCount: Int

    /// Altitude changes below this are noise, not climbing (metres).
    public static let elevationNoise = 2.0

    /// Seconds per kilometre; nil for a route shorter than 10 m.
    public var secondsPerKilometre: Double? {
        distanceMetres >= 10 && durationSeconds > 0 ? durationSeconds / (distanceMetres / 1000) : nil
    }

    public init(_ points: [RoutePoint]) {
        pointCount = points.count
        var distance = 0.0
        for i in points.indices.dropFirst() { distance += Self.metres(points[i - 1], points[i]) }
        distanceMetres = distance
        durationSeconds = points.count > 1 ? Double(points.last!.millis - points.first!.millis) / 1000 : 0
        var gain = 0.0
        var anchor: Double?
        for p in points {
            guard let e = p.elevation, e.isFinite else { continue }
            guard let a = anchor else { anchor = e; continue }
            if e - a >= Self.elevationNoise { gain += e - a; anchor = e } else if a - e >= Self.elevationNoise { anchor = e }
        }
        elevationGainMetres = anchor == nil ? nil : gain
    }

    /// Great-circle distance between two points (haversine, mean Earth radius).
    public static func metres(_ a: RoutePoint, _ b: RoutePoint) -> Double {
        let r = 6_371_008.8
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }
}
