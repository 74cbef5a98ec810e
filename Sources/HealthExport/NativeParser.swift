import HealthSpoolCore

/// The project's own format: a JSON array of samples, an object `{"samples": [...]}`, or NDJSON
/// (one sample object a line). See healthspool-spool(7) for the fields.
///
/// The input is streamed (`JSONStreamReader`): each sample is parsed on its own, so memory
/// stays flat whatever the size of the file, even on one line. A sample (or an NDJSON line)
/// longer than `maxValueBytes` is skipped and noted with its byte offset; the rest is read.
public enum NativeParser {
    /// The longest sample object (with its strings and metadata) or NDJSON line read, in bytes.
    public static let maxValueBytes = 1 << 20
    static let format = "native JSON"
    static let hint = "fix the JSON or write one sample object a line (NDJSON)"
    /// How often progress is reported, in bytes of the input.
    static let progressInterval: Int64 = 4 << 20

    /// Parses native JSON or NDJSON bytes into `sink`.
    public static func parse(_ input: [UInt8], into sink: SampleSink) throws -> ParseReport {
        try parse(MemoryByteSource(input), into: sink)
    }

    /// Parses native JSON or NDJSON from `source` into `sink`, streaming.
    ///
    /// A document that opens with `[` is one array: a syntax error stops it (samples before it
    /// are kept). Otherwise, a first line that is a complete JSON value followed by more lines
    /// is NDJSON: a bad line is noted and the rest read. Anything else is read as one document
    /// (a pretty-printed or one-line `{"samples": [...]}` or a single sample); if it breaks
    /// before any sample was handed over, it is read again as NDJSON, as before streaming.
    public static func parse(_ source: ByteSource, into sink: SampleSink) throws -> ParseReport {
        // Parsed on a thread of its own, ahead of the sink (the importer's SQLite inserts).
        try ParsePipeline.run(into: sink) { sink in try stream(source, into: sink) }
    }

    static func stream(_ source: ByteSource, into sink: SampleSink) throws -> ParseReport {
        let bodyStart: Int64 = try source.head(3) == [0xEF, 0xBB, 0xBF] ? 3 : 0
        let first = try firstValue(source, from: bodyStart)
        if first.byte == 0x5B {
            do { return try NativeDocument(source, from: bodyStart, sink: sink).read() }
            catch let e as JSONStreamReader.SyntaxError { throw malformed(e) }
        }
        if let (value, alone) = first.line {
            if alone { return try documentSamples(value, into: sink) }
            return try NativeLines(source, from: bodyStart, sink: sink).read(documentError: nil)
        }
        let document = NativeDocument(source, from: bodyStart, sink: sink)
        do {
            return try document.read()
        } catch let e as JSONStreamReader.SyntaxError {
            guard document.report.samples == 0 else { throw malformed(e) }
            // Not one document: NDJSON whose first line is bad, as the whole-document parser read it.
            return try NativeLines(source, from: bodyStart, sink: sink).read(documentError: e)
        }
    }

    /// The first byte that is not white space, and the first line parsed as JSON when it is one
    /// complete value within the limit (with whether nothing but white space follows it).
    static func firstValue(_ source: ByteSource, from start: Int64) throws -> (byte: UInt8?, line: (JSONValue, alone: Bool)?) {
        let reader = JSONStreamReader(SourceByteStream(source, start: start), offset: start)
        try reader.skipWhitespace()
        guard let byte = try reader.peek(), byte != 0x5B else { return (try reader.peek(), nil) }
        guard case let .bytes(line)? = try reader.captureLine(limit: maxValueBytes),
              let value = try? JSONParser.parse(line) else { return (byte, nil) }
        try reader.skipWhitespace()
        return (byte, (value, try reader.peek() == nil))
    }

    /// The samples of a document read whole: an array, `{"samples": [...]}`, or one sample.
    static func documentSamples(_ doc: JSONValue, into sink: SampleSink) throws -> ParseReport {
        var report = ParseReport()
        let items: [JSONValue]
        if let a = doc.arrayValue { items = a }
        else if let a = doc["samples"]?.arrayValue { items = a }
        else if doc.objectValue != nil, doc["type"] != nil { items = [doc] }
        else { throw notSamples() }
        for (n, item) in items.enumerated() {
            do { try sink.accept(try sample(from: item)); report.samples += 1 }
            catch let e as SampleFieldError { report.note(ParseProblem(message: "sample \(n + 1): \(e.reason)")) }
        }
        return report
    }

    static func notSamples() -> ImportError {
        .malformed(format: format, line: nil, offset: nil, reason: "expected an array of samples or an object with a \"samples\" array")
    }

    /// A JSON syntax error as `malformed`, naming the line and byte of the file.
    static func malformed(_ e: JSONStreamReader.SyntaxError) -> ImportError {
        .malformed(format: format, line: e.line, offset: e.offset, reason: "\(e.reason); \(hint)")
    }

    /// The problem noted for a value longer than `maxValueBytes`.
    static func oversize(_ what: String, length: Int64) -> String {
        "\(what) is \(length) bytes, more than the \(maxValueBytes)-byte limit for one sample; skipped (split it, or drop the big metadata)"
    }

    /// A sample field that is missing or wrong.
    struct SampleFieldError: Error { let reason: String }

    /// Refuses a sample (it starts at byte `offset` of the file) holding a string that is not
    /// UTF-8: read as U+FFFD, a damaged type name would otherwise become a type of its own.
    static func refuseInvalidUTF8(_ invalid: [JSONInvalidString], at offset: Int64) throws {
        guard let bad = invalid.first else { return }
        let field = bad.path.map { step -> String in
            switch step {
            case let .key(k): return k
            case let .index(i): return "[\(i)]"
            }
        }.joined(separator: ".")
        throw SampleFieldError(reason: "invalid UTF-8 at byte \(offset + Int64(bad.offset))\(field.isEmpty ? "" : " in \"\(field)\"")")
    }

    /// One sample from its JSON object.
    static func sample(from v: JSONValue) throws -> Sample {
        guard v.objectValue != nil else { throw SampleFieldError(reason: "expected an object") }
        guard let rawType = v["type"]?.stringValue, !rawType.isEmpty else { throw SampleFieldError(reason: "missing \"type\"") }
        guard let rawValue = v["value"]?.doubleValue, rawValue.isFinite else { throw SampleFieldError(reason: "missing or non-numeric \"value\"") }
        let startText = v["startDate"]?.stringValue ?? v["start"]?.stringValue
        guard let startText else { throw SampleFieldError(reason: "missing \"startDate\"") }
        guard let start = TimestampParser.parse(startText) else { throw SampleFieldError(reason: "\"startDate\" '\(startText)' is not a date (use 2026-01-01T10:00:00+01:00)") }
        var end = start
        if let endText = v["endDate"]?.stringValue ?? v["end"]?.stringValue {
            guard let e = TimestampParser.parse(endText) else { throw SampleFieldError(reason: "\"endDate\" '\(endText)' is not a date") }
            guard e >= start else { throw SampleFieldError(reason: "\"endDate\" is before \"startDate\"") }
            end = e
        }
        var type = DataType.canonicalName(rawType)
        var (value, unit, original) = UnitConversion.toCanonical(rawValue, unit: v["unit"]?.stringValue ?? "", type: type)
        if let canonical = DataType.lookup(type)?.unit, unit != canonical {
            // A HealthKit identifier with a unit its registry type cannot take stays under that
            // identifier, unconverted, as the Apple Health parser keeps it (and healthspool sends it).
            guard rawType != type, rawType.hasPrefix("HK") else {
                throw SampleFieldError(reason: "unit '\(unit)' cannot be converted to \(type)'s unit \(canonical)")
            }
            (type, value, unit, original) = (rawType, rawValue, v["unit"]?.stringValue ?? "", nil)
        }
        var source = SampleSource(name: "healthspool")
        if let s = v["source"] {
            if let name = s.stringValue { source.name = name }
            else if s.objectValue != nil {
                source = SampleSource(name: s["name"]?.stringValue ?? "healthspool", version: s["version"]?.stringValue,
                                      device: s["device"]?.stringValue)
            }
        }
        var metadata: [String: String] = [:]
        for (k, mv) in v["metadata"]?.objectValue ?? [] where !mv.isNull {
            if let text = mv.metadataText { metadata[k] = text }
            else { var w = JSONWriter(); w.value(mv); metadata[k] = w.text }
        }
        if let original { metadata["originalUnit"] = original; metadata["originalValue"] = SampleIdentity.canonicalNumber(rawValue) }
        return Sample(type: type, value: value, unit: unit, start: start, end: end, source: source, metadata: metadata,
                      revisable: v["revisable"]?.boolValue ?? false)
    }
}
