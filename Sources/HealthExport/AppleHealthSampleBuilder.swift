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
             workoutActivity, beatList, audiogram, visionPrescription, other
    }

    // The stored properties the parse reads and writes for every byte or record are
    // `@exclusivity(unchecked)`: no dynamic exclusivity check on each access (the rest of the
    // package builds with them). Measured: BENCHMARKS.md, "Exclusivity checks (paired)".
    let scanner: XMLTagScanner
    let sink: SampleSink
    @exclusivity(unchecked) var report = ParseReport()
    /// Whether the `<HealthData` root was seen.
    @exclusivity(unchecked) private(set) var sawHealthData = false
    @exclusivity(unchecked) private(set) var healthDataClosed = false
    @exclusivity(unchecked) var stack: [Element] = []

    @exclusivity(unchecked) var record: PendingRecord?
    @exclusivity(unchecked) var workout: PendingWorkout?
    /// The open `Correlation`, whose metadata its member records carry.
    @exclusivity(unchecked) var correlation: PendingCorrelation?
    @exclusivity(unchecked) var correlationCopies = CorrelationCopies()
    /// The workout each route file named by a `FileReference` belongs to.
    @exclusivity(unchecked) var partLinks = ExportPartLinks()
    /// The open `Audiogram` and `VisionPrescription` (AppleHealthSampleBuilder+Clinical).
    @exclusivity(unchecked) var audiogram: PendingAudiogram?
    @exclusivity(unchecked) var vision: PendingVision?
    /// The first attribute of the current element (or its children) whose value is not UTF-8.
    @exclusivity(unchecked) var invalidField: InvalidField?
    /// The UTC offset records carry on each local day (days since the epoch), for the
    /// `ActivitySummary` of that day, whose date has no zone.
    @exclusivity(unchecked) var offsetsByDay: [Int64: Int32] = [:]
    /// The UTC range of the local day last noted, and its offset: consecutive records share it.
    @exclusivity(unchecked) var notedDay: (from: Int64, to: Int64, offset: Int32) = (0, 0, 0)
    /// The offset of a local day on which no record carries one (days since the epoch → seconds).
    @exclusivity(unchecked) var fallbackOffset: (Int64) -> Int32 = MachineTimeZone.offset(onLocalDay:)

    // Caches of strings that repeat on every record.
    @exclusivity(unchecked) var kinds = ValueInterner<AppleHealthRecordKind>(slots: 8)
    @exclusivity(unchecked) var kindsByIdentifier: [String: AppleHealthRecordKind] = [:]
    @exclusivity(unchecked) var sourceNames = ValueInterner<String>(slots: 8)
    @exclusivity(unchecked) var sourceVersions = ValueInterner<String>(slots: 8)
    @exclusivity(unchecked) var devices = ValueInterner<String>(slots: 8)
    @exclusivity(unchecked) var categoryValues = ValueInterner<String>(slots: 16)
    @exclusivity(unchecked) var metadataKeys = ValueInterner<String>(slots: 32)

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
        /// The start tag's line, for problems noted at its end.
        var line: Int
        /// Whether a `Correlation` may repeat this record (its top-level copy is held back).
        var correlationMember = false
        /// Set when the record or one of its children held bytes that are not UTF-8.
        var refused: InvalidField?
    }

    /// A `Correlation` whose end tag is still to come.
    struct PendingCorrelation {
        var metadata: [String: String] = [:]
        var refused: InvalidField?
    }

    /// Where a value that is not UTF-8 was found.
    struct InvalidField {
        var attribute: String
        var offset: Int64
        var line: Int
    }

    // MARK: - Tags

    /// Handles a start (or empty-element) tag.
    func start(empty: Bool) throws {
        let name = scanner.name
        invalidField = nil
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
            correlation = PendingCorrelation()
            pushed = .correlation
            if empty { correlation = nil; return }
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
            if empty, parent == .workout { try closeWorkoutRoute() }
        case 15 where equal(name, "WorkoutActivity"):
            if parent == .workout { workoutActivity() }
            pushed = .workoutActivity
        case 13 where equal(name, "FileReference"):
            if parent == .workoutRoute { workoutRouteFile() }
        case 8 where equal(name, "Location"):
            if parent == .workoutRoute { try routeLocation() }
        case 15 where equal(name, "ActivitySummary"):
            try activitySummary()
        case 14 where equal(name, "ClinicalRecord"):
            clinicalRecord()
        case 9 where equal(name, "Audiogram"):
            startAudiogram()
            pushed = .audiogram
            if empty { try closeAudiogram(); return }
        case 16 where equal(name, "SensitivityPoint"):
            if parent == .audiogram { sensitivityPoint() }
        case 18 where equal(name, "VisionPrescription"):
            startVisionPrescription()
            pushed = .visionPrescription
            if empty { try closeVisionPrescription(); return }
        case 8 where equal(name, "RightEye"), 7 where equal(name, "LeftEye"):
            if parent == .visionPrescription { visionEye(right: name.count == 8) }
        case 2 where equal(name, "Me"):
            profile()
        case 10 where equal(name, "HealthData"):
            sawHealthData = true
            pushed = .healthData
        case 10 where equal(name, "ExportDate"):
            exportDate()
        default:
            if parent == .healthData || parent == nil {
                let key = report.ignored.count < 64 ? String(decoding: name, as: UTF8.self) + " (not a sample type)" : "other elements"
                report.ignored[key, default: 0] += 1
            }
        }
        if let bad = invalidField {
            // A child's damaged bytes refuse the element it belongs to.
            if record != nil, record!.refused == nil { record!.refused = bad }
            else if workout != nil, workout!.refused == nil { workout!.refused = bad }
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
        case 9 where equal(name, "Audiogram"): element = .audiogram
        case 18 where equal(name, "VisionPrescription"): element = .visionPrescription
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
        case .workoutRoute: try closeWorkoutRoute()
        case .audiogram: try closeAudiogram()
        case .visionPrescription: try closeVisionPrescription()
        case .correlation: correlation = nil
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

    /// Attribute `i` decoded. Unexpanded entity references are noted as problems; bytes that
    /// are not UTF-8 set `invalidField` (the caller refuses the element).
    func string(_ i: Int) -> String {
        let a = scanner.attributes[i]
        let raw = scanner.rawValue(i)
        _ = isUTF8(raw, attribute: i)
        guard a.needsDecoding else { return String(decoding: raw, as: UTF8.self) }
        return decoded(raw)
    }

    /// Whether attribute `i`'s bytes are UTF-8; when not, the first such attribute of the
    /// element is remembered with the byte offset of the bad byte.
    @inline(__always) func isUTF8(_ raw: UnsafeRawBufferPointer, attribute i: Int) -> Bool {
        guard let bad = UTF8Validation.firstInvalidByte(raw) else { return true }
        if invalidField == nil {
            invalidField = InvalidField(attribute: String(decoding: scanner.attributeName(i), as: UTF8.self),
                                        offset: scanner.valueOffset(i) + Int64(bad), line: scanner.tagLine)
        }
        return false
    }

    /// Notes that `what` was not imported because of bytes that are not UTF-8.
    func refuse(_ what: String, _ bad: InvalidField, at line: Int? = nil) {
        report.note(ParseProblem(offset: bad.offset, line: bad.line,
                                 message: "\(what) refused: attribute '\(bad.attribute)' is not valid UTF-8 (byte \(bad.offset)); the file is damaged there — export it again"))
    }

    func decoded(_ raw: UnsafeRawBufferPointer) -> String {
        let (text, unexpanded) = XMLValueDecoder.decode(raw)
        if unexpanded {
            problem("entity reference in '\(text.prefix(80))' left unexpanded (only &lt; &gt; &amp; &quot; &apos; and &#…; are decoded)")
        }
        return text
    }

    /// Attribute `i` decoded, through an interner.
    /// A value that is not UTF-8 is not remembered, so that every element holding it is refused.
    @inline(__always) func interned(_ i: Int, _ interner: inout ValueInterner<String>) -> String {
        let raw = scanner.rawValue(i)
        let needs = scanner.attributes[i].needsDecoding
        var valid = true
        let value = interner.value(for: raw) {
            valid = isUTF8($0, attribute: i)
            return needs ? decoded($0) : String(decoding: $0, as: UTF8.self)
        }
        if !valid { interner.forgetLast() }
        return value
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

    // MARK: - Me

    /// `<ExportDate value="…"/>`: the file is a full dump of the phone's store up to that time.
    private func exportDate() {
        for i in 0..<scanner.attributeCount where equal(scanner.attributeName(i), "value") {
            if let t = date(i, "export date") { sink.fullExport(exportDate: t) }
        }
    }

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
