import HealthSpoolCore

/// The project's own format: a JSON array of samples, an object `{"samples": [...]}`, or NDJSON
/// (one sample object a line). See healthspool-spool(7) for the fields.
public enum NativeParser {
    /// Parses native JSON or NDJSON bytes into `sink`.
    public static func parse(_ input: [UInt8], into sink: SampleSink) throws -> ParseReport {
        let bytes = input.withoutByteOrderMark
        var report = ParseReport()
        var documentError: JSONSyntaxError?
        do {
            let doc = try JSONParser.parse(bytes)
            let items: [JSONValue]
            if let a = doc.arrayValue { items = a }
            else if let a = doc["samples"]?.arrayValue { items = a }
            else if doc.objectValue != nil, doc["type"] != nil { items = [doc] }
            else { throw ImportError.malformed(format: "native JSON", line: nil, offset: nil, reason: "expected an array of samples or an object with a \"samples\" array") }
            for (n, item) in items.enumerated() {
                do { try sink.accept(try sample(from: item)); report.samples += 1 }
                catch let e as SampleFieldError { report.note(ParseProblem(message: "sample \(n + 1): \(e.reason)")) }
            }
            return report
        } catch let e as JSONSyntaxError {
            documentError = e
        }
        let hint = "fix the JSON or write one sample object a line (NDJSON)"
        // A document that opens with '[' is one array, never NDJSON: report where it breaks.
        if let documentError, bytes.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }).first == 0x5B {
            throw ImportError.malformedJSON(documentError, format: "native JSON", in: bytes, hint: hint)
        }
        // NDJSON: one object a line. A line that is not JSON is a problem; the rest still import.
        var lineNo = 0
        var start = 0
        var sawObject = false
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            lineNo += 1
            let line = Array(bytes[start..<end])
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { if end == bytes.count { break } else { continue } }
            do {
                let v = try JSONParser.parse(line)
                sawObject = true
                try sink.accept(try sample(from: v))
                report.samples += 1
            } catch let e as SampleFieldError {
                report.note(ParseProblem(line: lineNo, message: e.reason))
            } catch let e as JSONSyntaxError {
                report.note(ParseProblem(line: lineNo, message: e.description))
            }
            if end == bytes.count { break }
        }
        if !sawObject {
            // Not NDJSON either: the whole-document error says where the JSON breaks.
            if let documentError { throw ImportError.malformedJSON(documentError, format: "native JSON", in: bytes, hint: hint) }
            throw ImportError.malformed(format: "native JSON/NDJSON", line: 1, offset: nil, reason: "no sample could be read")
        }
        return report
    }

    /// A sample field that is missing or wrong.
    struct SampleFieldError: Error { let reason: String }

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
