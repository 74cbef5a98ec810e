import HealthSpoolCore

/// Reads NDJSON: one sample object a line, each parsed on its own. A line that is not JSON,
/// not a sample, or longer than `NativeParser.maxValueBytes` is noted with its line (and, when
/// too long, its byte offset); the other lines are read.
final class NativeLines {
    private let reader: JSONStreamReader
    private let sink: SampleSink

    init(_ source: ByteSource, from start: Int64, sink: SampleSink) {
        reader = JSONStreamReader(SourceByteStream(source, start: start), offset: start)
        self.sink = sink
    }

    /// Reads every line. When no line holds JSON at all, throws `documentError` (where the
    /// input broke when read as one document) or says no sample could be read.
    func read(documentError: JSONStreamReader.SyntaxError?) throws -> ParseReport {
        var report = ParseReport()
        var lineNo = 0
        var sawObject = false
        var nextProgress = NativeParser.progressInterval
        while true {
            let at = reader.offset
            guard let captured = try reader.captureLine(limit: NativeParser.maxValueBytes) else { break }
            lineNo += 1
            if reader.offset >= nextProgress {
                sink.progress(bytesRead: reader.offset)
                nextProgress = reader.offset + NativeParser.progressInterval
            }
            guard case let .bytes(line) = captured else {
                if case let .oversize(length) = captured {
                    report.note(ParseProblem(offset: at, line: lineNo, message: NativeParser.oversize("the line", length: length)))
                }
                continue
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            do {
                let (v, invalid) = try JSONParser.parseCheckingUTF8(line)
                sawObject = true
                try NativeParser.refuseInvalidUTF8(invalid, at: at)
                try sink.accept(try NativeParser.sample(from: v))
                report.samples += 1
            } catch let e as NativeParser.SampleFieldError {
                report.note(ParseProblem(line: lineNo, message: e.reason))
            } catch let e as JSONSyntaxError {
                report.note(ParseProblem(line: lineNo, message: e.description))
            }
        }
        sink.progress(bytesRead: reader.offset)
        if !sawObject {
            if let documentError { throw NativeParser.malformed(documentError) }
            throw ImportError.malformed(format: "native JSON/NDJSON", line: 1, offset: nil, reason: "no sample could be read")
        }
        return report
    }
}
