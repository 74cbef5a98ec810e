import HealthSpoolCore

/// `Workout` (one `workout` sample: value = duration in minutes, its events, statistics, routes
/// and activities summarized into metadata) and `ActivitySummary` (one `activitySummary`
/// sample a day: value = active energy in kcal).
extension AppleHealthSampleBuilder {
    /// A workout whose end tag is still to come.
    struct PendingWorkout {
        var start: Timestamp
        var end: Timestamp
        var minutes: Double
        var source: SampleSource
        var metadata: [String: String]
        var events = JSONList()
        var statistics = JSONList(open: "{", close: "}")
        var routes = JSONList()
        var activities = JSONList()
        var route: [(String, String)] = []
        var routeLocations = 0
        /// The id the workout's sample will have (its routes name it).
        var id: SampleID
        /// The open route's source, and its inline `Location` points (older exports).
        var routeSource: SampleSource?
        var inlineRoute: RouteParts?
        /// Set when the workout or one of its children held bytes that are not UTF-8.
        var refused: InvalidField?
    }

    /// A JSON array (or object) built one element at a time, capped.
    struct JSONList {
        var writer = JSONWriter(capacity: 0)
        var count = 0
        let open: StaticString
        let close: StaticString
        static let cap = 500

        init(open: StaticString = "[", close: StaticString = "]") {
            self.open = open
            self.close = close
        }

        /// Starts the next element (false past the cap: the caller skips it).
        mutating func next() -> Bool {
            count += 1
            guard count <= Self.cap else { return false }
            if count == 1 { writer.raw(open) } else { writer.raw(",") }
            return true
        }

        /// The JSON text, nil when empty.
        mutating func text() -> String? {
            guard count > 0 else { return nil }
            writer.raw(close)
            return writer.text
        }
    }

    func startWorkout() {
        workout = nil
        var attrs: [(String, Int)] = []
        var start = -1, end = -1, duration = -1, durationUnit = -1, sourceName = -1, sourceVersion = -1, device = -1
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            if equal(n, "startDate") { start = i }
            else if equal(n, "endDate") { end = i }
            else if equal(n, "duration") { duration = i }
            else if equal(n, "durationUnit") { durationUnit = i }
            else if equal(n, "sourceName") || equal(n, "source") { sourceName = i }
            else if equal(n, "sourceVersion") { sourceVersion = i }
            else if equal(n, "device") { device = i }
            else if equal(n, "creationDate") { continue }
            else { attrs.append((String(decoding: n, as: UTF8.self), i)) }
        }
        guard start >= 0, let s = date(start, "startDate") else {
            if start < 0 { problem("Workout without a startDate") }
            return
        }
        var e = s
        if end >= 0 { guard let t = date(end, "endDate") else { return }; e = t }
        guard e >= s else {
            problem("Workout refused: endDate '\(string(end))' is before startDate '\(string(start))'")
            return
        }
        var minutes = Double(e.millis - s.millis) / 60_000
        if duration >= 0, let d = number(duration) {
            let unit = durationUnit >= 0 ? string(durationUnit) : "min"
            if let m = UnitConversion.convert(d, from: unit, to: "min") { minutes = m }
        }
        var metadata: [String: String] = [:]
        for (name, i) in attrs { metadata[name] = string(i) }
        let source = SampleSource(name: sourceName >= 0 ? interned(sourceName, &sourceNames) : "",
                                  version: sourceVersion >= 0 ? interned(sourceVersion, &sourceVersions) : nil,
                                  device: device >= 0 ? interned(device, &devices) : nil)
        workout = PendingWorkout(
            start: s, end: e, minutes: minutes, source: source, metadata: metadata,
            id: SampleIdentity.id(type: "workout", start: s.millis, end: e.millis, value: minutes, unit: "min", sourceName: source.name),
            refused: invalidField)
    }

    func closeWorkout() throws {
        guard var w = workout.take() else { return }
        if let bad = w.refused { return refuse("Workout", bad) }
        if let t = w.events.text() {
            w.metadata["workoutEvents"] = t
            w.metadata["workoutEventCount"] = String(w.events.count)
        }
        if let t = w.statistics.text() { w.metadata["workoutStatistics"] = t }
        if let t = w.routes.text() { w.metadata["workoutRoutes"] = t }
        if let t = w.activities.text() { w.metadata["workoutActivities"] = t }
        try emit(Sample(type: "workout", value: w.minutes, unit: "min", start: w.start, end: w.end,
                        source: w.source, metadata: w.metadata))
    }

    /// Writes the current tag's attributes as one JSON object, numbers as numbers.
    private func writeAttributes(to w: inout JSONWriter, skip: (UnsafeRawBufferPointer) -> Bool = { _ in false }) {
        w.raw("{")
        var first = true
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            if skip(n) { continue }
            if !first { w.raw(",") }
            first = false
            w.key(String(decoding: n, as: UTF8.self))
            if !equal(n, "type"), !equal(n, "date"), !n.contains(0x44 /* D: …Date */), let v = number(i) { w.number(v) }
            else { w.string(string(i)) }
        }
        w.raw("}")
    }

    func workoutEvent() {
        guard workout != nil, workout!.events.next() else { return }
        writeAttributes(to: &workout!.events.writer)
    }

    func workoutActivity() {
        guard workout != nil, workout!.activities.next() else { return }
        writeAttributes(to: &workout!.activities.writer) { self.equal($0, "uuid") }
    }

    /// `WorkoutStatistics`: keyed by the registry name of its type.
    func workoutStatistics() {
        guard workout != nil else { return }
        var type = "unknown"
        for i in 0..<scanner.attributeCount where equal(scanner.attributeName(i), "type") {
            type = DataType.canonicalName(string(i))
        }
        guard workout!.statistics.next() else { return }
        workout!.statistics.writer.key(type)
        writeAttributes(to: &workout!.statistics.writer) { self.equal($0, "type") || self.equal($0, "startDate") || self.equal($0, "endDate") }
    }

    func startWorkoutRoute() {
        guard workout != nil else { return }
        workout!.route = []
        workout!.routeLocations = 0
        workout!.routeSource = nil
        workout!.inlineRoute = nil
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            if equal(n, "startDate") || equal(n, "endDate") || equal(n, "sourceName") {
                workout!.route.append((String(decoding: n, as: UTF8.self), string(i)))
            }
            if equal(n, "sourceName") { workout!.routeSource = SampleSource(name: interned(i, &sourceNames)) }
        }
    }

    /// The link the open route's points carry to their workout.
    var routeLink: RouteLink? {
        guard let w = workout else { return nil }
        return RouteLink(workoutID: w.id, workoutStart: w.start, source: w.routeSource ?? w.source,
                         utcOffsetSeconds: w.start.utcOffsetSeconds)
    }

    /// `Location` inside a `WorkoutRoute` (exports before iOS 11 put the points inline).
    func routeLocation() throws {
        guard workout != nil, let link = routeLink else { return }
        workout!.routeLocations += 1
        var at: Timestamp?, lat: Double?, lon: Double?
        var p = RoutePoint(millis: 0, latitude: 0, longitude: 0)
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            if equal(n, "date") { at = date(i, "date") }
            else if equal(n, "latitude") { lat = number(i) }
            else if equal(n, "longitude") { lon = number(i) }
            else if equal(n, "altitude") { p.elevation = number(i) }
            else if equal(n, "speed") { p.speed = number(i).flatMap { $0 >= 0 ? $0 : nil } }
            else if equal(n, "course") { p.course = number(i).flatMap { $0 >= 0 ? $0 : nil } }
            else if equal(n, "horizontalAccuracy") { p.horizontalAccuracy = number(i) }
            else if equal(n, "verticalAccuracy") { p.verticalAccuracy = number(i) }
        }
        guard let at, let lat, let lon else { problem("Location without a date, latitude or longitude skipped"); return }
        p.millis = at.millis; p.latitude = lat; p.longitude = lon
        guard p.isValid else { problem("Location at \(lat), \(lon) is not a place on Earth; skipped"); return }
        if workout!.inlineRoute == nil { workout!.inlineRoute = RouteParts(link: link, file: nil) }
        _ = try workout!.inlineRoute!.add(p) { try self.emit($0) }
    }

    func workoutRouteFile() {
        guard workout != nil else { return }
        for i in 0..<scanner.attributeCount where equal(scanner.attributeName(i), "path") {
            let path = string(i)
            workout!.route.append(("path", path))
            if let link = routeLink {
                if partLinks.routes.count < ExportPartLinks.maxRoutes { partLinks.routes[ExportPartLinks.fileName(path)] = link }
                else { problem("more than \(ExportPartLinks.maxRoutes) route files named; '\(path)' is tied to its workout by time") }
            }
        }
    }

    func closeWorkoutRoute() throws {
        if workout != nil, var inline = workout!.inlineRoute {
            workout!.inlineRoute = nil
            try inline.finish { try self.emit($0) }
        }
        guard workout != nil, workout!.routes.next() else { return }
        var w = workout!.routes.writer
        workout!.routes.writer = JSONWriter(capacity: 0)
        w.raw("{")
        for (n, (k, v)) in workout!.route.enumerated() {
            if n > 0 { w.raw(",") }
            w.key(k); w.string(v)
        }
        if workout!.routeLocations > 0 {
            if !workout!.route.isEmpty { w.raw(",") }
            w.key("locations"); w.number(Int64(workout!.routeLocations))
        }
        w.raw("}")
        workout!.routes.writer = w
        workout!.route = []
        workout!.routeLocations = 0
    }

    // MARK: - ActivitySummary

    /// The source name given to activity summaries, which carry none in the export.
    static let activitySummarySource = "Apple Health"

    func activitySummary() throws {
        var day: CivilDate?
        var energy: Double?
        var energyUnit = "kcal"
        var goal: Double?
        var metadata: [String: String] = [:]
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            if equal(n, "dateComponents") {
                day = CivilDate(parsing: string(i))
                if day == nil { problem("ActivitySummary dateComponents '\(string(i))' is not a date") ; return }
            } else if equal(n, "activeEnergyBurned") {
                energy = number(i)
            } else if equal(n, "activeEnergyBurnedUnit") {
                energyUnit = string(i)
            } else if equal(n, "activeEnergyBurnedGoal") {
                goal = number(i)
            } else {
                metadata[String(decoding: n, as: UTF8.self)] = string(i)
            }
        }
        guard let day else { problem("ActivitySummary without dateComponents"); return }
        if let bad = invalidField { return refuse("ActivitySummary", bad) }
        let toKcal = { (v: Double) in
            Self.tidy(UnitConversion.convert(v, from: AppleHealthRecordKind.appleUnitSpellings[energyUnit] ?? energyUnit, to: "kcal") ?? v)
        }
        if let goal { metadata["activeEnergyBurnedGoal"] = SampleIdentity.canonicalNumber(toKcal(goal)) }
        // The summary is the user's local day: its date has no zone, so the day runs from local
        // midnight to local midnight in the offset the export's records of that day carry (the
        // importing machine's zone when no record falls on it).
        let days = day.daysSinceEpoch
        let offset = offsetsByDay[days] ?? fallbackOffset(days)
        let nextOffset = offsetsByDay[days + 1] ?? offset
        let start = Timestamp(seconds: days * 86_400 - Int64(offset), utcOffsetSeconds: offset)
        let end = Timestamp(seconds: (days + 1) * 86_400 - Int64(nextOffset), utcOffsetSeconds: nextOffset)
        // The day's rings still grow until it ends: revisable, so a later export replaces them.
        try emit(Sample(type: "activitySummary", value: energy.map(toKcal) ?? 0, unit: "kcal",
                        start: start, end: end,
                        source: SampleSource(name: Self.activitySummarySource), metadata: metadata, revisable: true))
    }
}
