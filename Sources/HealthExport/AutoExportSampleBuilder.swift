import HealthSpoolCore

/// Turns Health Auto Export values into samples: canonical units, percentages on 0–100, the
/// original value kept in metadata. Shared by the JSON and CSV readers; counts into a report.
struct AutoExportSampleBuilder {
    /// Source name used when a point names none.
    static let defaultSource = "Health Auto Export"

    let sink: SampleSink
    var report = ParseReport()

    /// Items refused for bytes that are not UTF-8 (`metrics/3`, `metrics/3/7`, `workouts/2`).
    var refused: Set<String> = []

    init(sink: SampleSink) { self.sink = sink }

    /// Whether the item at `section`/`indices` was refused (no cost when nothing was).
    func isRefused(_ section: String, _ indices: Int...) -> Bool {
        guard !refused.isEmpty else { return false }
        return refused.contains(([section] + indices.map(String.init)).joined(separator: "/"))
    }

    /// A value that could not become a sample, with the reason (for `report.note`).
    struct Rejection: Error { let reason: String }

    /// Converts and hands one sample to the sink, returning its id. Throws `Rejection` for a
    /// value that cannot be stored (unit not convertible, not finite); errors from the sink pass
    /// through.
    @discardableResult
    mutating func emit(type: String, value raw: Double, unit rawUnit: String, start: Timestamp, end: Timestamp,
                       source: String, metadata: [String: String] = [:], revisable: Bool) throws -> SampleID {
        guard raw.isFinite else { throw Rejection(reason: "\(type): value is not a number") }
        var (value, unit, original) = UnitConversion.toCanonical(raw, unit: rawUnit, type: type)
        let canonical = DataType.lookup(type)?.unit
        if let canonical, unit != canonical {
            throw Rejection(reason: "\(type): unit '\(rawUnit)' cannot be converted to \(canonical)")
        }
        var metadata = metadata
        // HAE writes blood oxygen and body fat either as 0–100 or as a 0–1 fraction; the
        // registry's % is 0–100. A value of at most 1 is read as a fraction.
        if canonical == "%", value > 0, value <= 1 {
            value *= 100
            original = original ?? (rawUnit.isEmpty ? "%" : rawUnit)
        }
        if let original {
            metadata["originalUnit"] = original
            metadata["originalValue"] = SampleIdentity.canonicalNumber(raw)
        } else if !rawUnit.isEmpty, unit != rawUnit {
            metadata["originalUnit"] = rawUnit     // only the spelling changed (`hr` kept as `h`)
        }
        let sample = Sample(type: type, value: value, unit: unit, start: start, end: max(start, end),
                            source: SampleSource(name: source), metadata: metadata, revisable: revisable)
        let id = sample.id
        try sink.accept(sample)
        report.samples += 1
        return id
    }

    /// Hands a sample made elsewhere (a route part, an ECG) to the sink.
    mutating func emit(_ sample: consuming Sample) throws {
        try sink.accept(sample)
        report.samples += 1
    }

    /// Records a point that could not be read.
    mutating func note(_ message: String, line: Int? = nil) {
        report.note(ParseProblem(line: line, message: message))
    }

    /// Counts something deliberately not imported.
    mutating func ignore(_ what: String, count: Int = 1) {
        report.ignored[what, default: 0] += count
    }
}
