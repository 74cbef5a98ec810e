import HealthSpoolCore

/// The workout a route belongs to, as the export names it.
struct RouteLink: Sendable {
    /// The `workout` sample's id (nil when the route names no workout the export holds).
    var workoutID: SampleID?
    var workoutStart: Timestamp?
    /// The route's own source (the `WorkoutRoute`'s, else the workout's).
    var source: SampleSource
    /// The offset the route's times are shown in (the workout's; GPX times are UTC).
    var utcOffsetSeconds: Int32

    static let unlinked = RouteLink(workoutID: nil, workoutStart: nil, source: SampleSource(name: "Apple Health"), utcOffsetSeconds: 0)
}

/// Collects a route's points in order and hands them on as `workoutRoute` samples of up to
/// `RoutePoint.perSample` points each (docs/formats.md, "Workout routes"): memory stays one
/// part, whatever the route's length. A part is handed on once the next point arrives, so the
/// last part can say it is the last (`final`).
struct RouteParts {
    let link: RouteLink
    /// The file the route came from (`workout-routes/route_….gpx`), or nil.
    let file: String?
    private var pending: [RoutePoint] = []
    /// Points handed on so far, and parts.
    private(set) var handedOn = 0
    private(set) var parts = 0
    /// Points taken in all (at most `maxPoints`).
    var count: Int { handedOn + pending.count }

    /// A route longer than this is cut there (a day at 1 Hz is 86,400 points).
    static let maxPoints = 1_000_000

    init(link: RouteLink, file: String?) {
        self.link = link
        self.file = file
        pending.reserveCapacity(RoutePoint.perSample)
    }

    /// Adds the next point; false when the route is full (the point is dropped).
    mutating func add(_ p: RoutePoint, emit: (consuming Sample) throws -> Void) throws -> Bool {
        guard count < Self.maxPoints else { return false }
        if pending.count == RoutePoint.perSample { try flush(final: false, emit: emit) }
        pending.append(p)
        return true
    }

    /// Hands on the last part.
    mutating func finish(emit: (consuming Sample) throws -> Void) throws {
        try flush(final: true, emit: emit)
    }

    private mutating func flush(final: Bool, emit: (consuming Sample) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        var lo = pending[0].millis, hi = lo
        for p in pending { lo = min(lo, p.millis); hi = max(hi, p.millis) }
        var metadata: [String: String] = [
            "points": RoutePoint.encode(pending),
            "firstPoint": String(handedOn),
            "part": String(parts + 1),
        ]
        if final { metadata["final"] = "true"; metadata["routePoints"] = String(handedOn + pending.count) }
        if let id = link.workoutID { metadata["workoutId"] = id.description }
        if let s = link.workoutStart { metadata["workoutStart"] = s.iso8601Local }
        if let file { metadata["file"] = file }
        let offset = link.utcOffsetSeconds
        try emit(Sample(type: "workoutRoute", value: Double(pending.count), unit: "count",
                        start: Timestamp(millis: lo, utcOffsetSeconds: offset), end: Timestamp(millis: hi, utcOffsetSeconds: offset),
                        source: link.source, metadata: metadata))
        handedOn += pending.count
        parts += 1
        pending.removeAll(keepingCapacity: true)
    }
}
