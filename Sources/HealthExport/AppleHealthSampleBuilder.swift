import HealthSpoolCore

/// Turns the tags of an Apple Health export.xml into samples, one element at a time.
///
/// Elements: `Record` (quantity and category types, with `MetadataEntry` and HRV beat-list
/// children), `Correlation` (its inner records become samples exactly as their top-level copies
/// do, so the stable id makes them one), `Workout`, `ActivitySummary`, and `Me` (profile, never
/// a sample). A sample is handed over when its element is complete.
final class AppleHealthSampleBuilder {
    enum Element {
        case healthData, record, correlation, workout, workoutEvent, workoutStatistics, workoutRoute,
             workoutActivity, beatList, other
    }

    let scanner: XMLTagScanner
    let sink: SampleSink
    var report = ParseReport()
    /// Whether the `<HealthData` root was seen.
    private(set) var sawHealthData = false
    private(set) var healthDataClosed = false
    var stack: [Element] = []

    var record: PendingRecord?
    var workout: PendingWorkout?

    // Caches of strings that repeat on every record.
    var kinds = ValueInterner<AppleHealthRecordKind>(slots: 8)
    var kindsByIdentifier: [String: AppleHealthRecordKind] = [:]
    var sourceNames = ValueInterner<String>(slots: 8)
    var sourceVersions = ValueInterner<String>(slots: 8)
    var devices = ValueInterner<String>(slots: 8)
    var categoryValues = ValueInterner<String>(slots: 16)
    var metadataKeys = ValueInterner<String>(slots: 32)

    init(scanner: XMLTagScanner, sink: SampleSink) {
        self.scanner = scanner
        self.sink = sink
    }

    /// A `Record` whose start tag was read and whose end tag is still to come.
    struct PendingRecord {
        var type: String
        var value: Double
        var unit: String
        var start: Timestamp
        var end: Timestamp
        var source: SampleSource
        var metadata: [String: String]
        var beats: JSONWriter?
        var beatCount = 0
    }

    // MARK: - Tags

    /// Handles a start (or empty-element) tag.
    func start(empty: Bool) throws {
        let name = scanner.name
        let parent = stack.last
        var pushed: Element = .other
        switch name.count {
        case 6 where equal(name, "Record"):
            if parent == .record { try closeRecord() ; stack.removeLast() }
            try startRecord()
            pushed = .record
            if empty { try closeRecord(); return }
        case 13 where equal(name, "MetadataEntry"):
            metadataEntry(parent: parent)
        case 27 where equal(name, "InstantaneousBeatsPerMinute"):
            if parent == .beatList { beat() }
        case 32 where equal(name, "HeartRateVariabilityMetadataList"):
            pushed = .beatList
        case 11 where equal(name, "Correlation"):
            pushed = .correlation
        case 7 where equal(name, "Workout"):
            startWorkout()
            pushed = .workout
            if empty { try closeWorkout(); return }
        case 12 where equal(name, "WorkoutEvent"):
            if parent == .workout { workoutEvent() }
            pushed = .workoutEvent
        case 17 where equal(name, "WorkoutStatistics"):
            if parent == .workout { workoutStatistics() }
            pushed = .workoutStatistics
        case 12 where equal(name, "WorkoutRoute"):
            if parent == .workout { startWorkoutRoute() }
            pushed = .workoutRoute
            if empty, parent == .workout { closeWorkoutRoute() }
        case 15 where equal(name, "WorkoutActivity"):
            if parent == .workout { workoutActivity() }
            pushed = .workoutActivity
        case 13 where equal(name, "FileReference"):
            if parent == .workoutRoute { workoutRouteFile() }
        case 8 where equal(name, "Location"):
            if parent == .workoutRoute { workout?.routeLocations += 1 }
        case 15 where equal(name, "ActivitySummary"):
            try activitySummary()
        case 2 where equal(name, "Me"):
            profile()
        case 10 where equal(name, "HealthData"):
            sawHealthData = true
            pushed = .healthData
        case 10 where equal(name, "ExportDate"):
            break
        default:
            if parent == .healthData || parent == nil {
                let key = report.ignored.count < 64 ? String(decoding: name, as: UTF8.self) + " (not a sample type)" : "other elements"
                report.ignored[key, default: 0] += 1
            }
        }
        if !empty { stack.append(pushed) }
    }

    /// Handles an end tag: closes the innermost open element of that name (and, for
    /// mis-nested input, whatever was left open inside it). A stray end tag is ignored.
    func end() throws {
        let name = scanner.name
        let element: Element
        switch name.count {
        case 6 where equal(name, "Record"): element = .record
        case 11 where equal(name, "Correlation"): element = .correlation
        case 7 where equal(name, "Workout"): element = .workout
        case 10 where equal(name, "HealthData"): element = .healthData
        case 32 where equal(name, "HeartRateVariabilityMetadataList"): element = .beatList
        case 12 where equal(name, "WorkoutEvent"): element = .workoutEvent
        case 17 where equal(name, "WorkoutStatistics"): element = .workoutStatistics
        case 12 where equal(name, "WorkoutRoute"): element = .workoutRoute
        case 15 where equal(name, "WorkoutActivity"): element = .workoutActivity
        default: element = .other
        }
        guard let index = stack.lastIndex(of: element) else { return }
        while stack.count > index {
            let closing = stack.removeLast()
            try close(closing)
        }
    }

    private func close(_ element: Element) throws {
        switch element {
        case .record: try closeRecord()
        case .workout: try closeWorkout()
        case .workoutRoute: closeWorkoutRoute()
        case .healthData: healthDataClosed = true
        default: break
        }
    }

    /// Whether the current tag's name is `s`.
    @inline(__always) func equal(_ b: UnsafeRawBufferPointer, _ s: StaticString) -> Bool {
        b.count == s.utf8CodeUnitCount && memcmp(b.baseAddress!, s.utf8Start, b.count) == 0
    }

    /// Hands a sample to the sink.
    @inline(__always) func emit(_ sample: consuming Sample) throws {
        try sink.accept(sample)
        report.samples += 1
    }

    /// Notes a problem at the current tag.
    func problem(_ message: String) {
        report.note(ParseProblem(offset: scanner.tagOffset, line: scanner.tagLine, message: message))
    }

    // MARK: - Attribute values

    /// Attribute `i` decoded. Unexpanded entity references are noted as problems.
    func string(_ i: Int) -> String {
        let a = scanner.attributes[i]
        let raw = scanner.rawValue(i)
        guard a.needsDecoding else { return String(decoding: raw, as: UTF8.self) }
        return decoded(raw)
    }

    func decoded(_ raw: UnsafeRawBufferPointer) -> String {
        let (text, unexpanded) = XMLValueDecoder.decode(raw)
        if unexpanded {
            problem("entity reference in '\(text.prefix(80))' left unexpanded (only &lt; &gt; &amp; &quot; &apos; and &#…; are decoded)")
        }
        return text
    }

    /// Attribute `i` decoded, through an interner.
    @inline(__always) func interned(_ i: Int, _ interner: inout ValueInterner<String>) -> String {
        let raw = scanner.rawValue(i)
        let needs = scanner.attributes[i].needsDecoding
        return interner.value(for: raw) { needs ? decoded($0) : String(decoding: $0, as: UTF8.self) }
    }

    /// Attribute `i` as a date, or nil (with a problem noted).
    func date(_ i: Int, _ what: StaticString) -> Timestamp? {
        if let t = TimestampParser.parse(scanner.rawValue(i)) { return t }
        problem("\(what) '\(string(i))' is not a date")
        return nil
    }

    /// Attribute `i` as a number.
    @inline(__always) func number(_ i: Int, shift: Int = 0) -> Double? {
        guard let v = DecimalParser.parse(scanner.rawValue(i), shift: shift), v.isFinite else { return nil }
        return v
    }

    /// The element name, for messages.
    var elementName: String { String(decoding: scanner.name, as: UTF8.self) }

    // MARK: - Me

    private func profile() {
        var attributes: [(String, String)] = []
        for i in 0..<scanner.attributeCount {
            attributes.append((String(decoding: scanner.attributeName(i), as: UTF8.self), string(i)))
        }
        sink.profile(attributes)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
