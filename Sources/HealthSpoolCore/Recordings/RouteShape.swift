#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A route drawn: its points projected to a box (equirectangular around the route's middle
/// latitude, north up) and thinned for display. The stored route is never thinned.
public struct RouteShape: Sendable, Equatable {
    /// Points in the box, `0…width` × `0…height`, y down.
    public var points: [(x: Double, y: Double)]
    public var width: Double
    public var height: Double

    public static func == (a: RouteShape, b: RouteShape) -> Bool {
        a.width == b.width && a.height == b.height && a.points.count == b.points.count
            && zip(a.points, b.points).allSatisfy { $0.x == $1.x && $0.y == $1.y }
    }

    /// Projects `route` into a `size` × `size` box with `margin` on each side, the longer side
    /// filling it, keeping at most `maxPoints` (evenly spaced, first and last always kept).
    public init(_ route: [RoutePoint], size: Double = 300, margin: Double = 10, maxPoints: Int = 600) {
        width = size
        height = size
        guard !route.isEmpty else { points = []; return }
        let lats = route.map(\.latitude), lons = route.map(\.longitude)
        let midLat = (lats.min()! + lats.max()!) / 2
        let k = cos(midLat * Double.pi / 180)
        let xs = lons.map { $0 * k }, ys = lats
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let span = max(maxX - minX, maxY - minY, 1e-9)
        let scale = (size - 2 * margin) / span
        // Centred in the box.
        let offX = margin + ((size - 2 * margin) - (maxX - minX) * scale) / 2
        let offY = margin + ((size - 2 * margin) - (maxY - minY) * scale) / 2
        let step = max(1, Int((Double(route.count) / Double(max(2, maxPoints))).rounded(.up)))
        var out: [(x: Double, y: Double)] = []
        var i = 0
        while i < route.count {
            out.append((offX + (xs[i] - minX) * scale, offY + (maxY - ys[i]) * scale))
            if i == route.count - 1 { break }
            i = min(i + step, route.count - 1)
        }
        points = out
    }

    /// The SVG `points` attribute of a polyline, one decimal.
    public var polyline: String {
        points.map { "\(Self.tenth($0.x)),\(Self.tenth($0.y))" }.joined(separator: " ")
    }

    static func tenth(_ v: Double) -> String {
        let t = (v * 10).rounded() / 10
        return t == t.rounded() ? String(Int(t)) : String(t)
    }
}
