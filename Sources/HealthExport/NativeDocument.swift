import HealthSpoolCore

/// Streams one native JSON document: a top-level array of samples, an object whose `samples`
/// array is streamed the same way, or one sample object. Each array element is captured on its
/// own (at most `NativeParser.maxValueBytes`) and parsed by `JSONParser`; an element longer
/// than that is skipped and noted with its byte offset.
///
/// Throws `JSONStreamReader.SyntaxError` where the document stops being JSON; samples handed
/// to the sink before that stay handed over (`report.samples` says how many).
final class NativeDocument {
    private let reader: JSONStreamReader
    private let sink: SampleSink
    private var nextProgress = NativeParser.progressInterval
    private(set) var report = ParseReport()

    init(_ source: ByteSource, from start: Int64, sink: SampleSink) {
        reader = JSONStreamReader(SourceByteStream(source, start: start), offset: start)
        self.sink = sink
    }

    func read() throws -> ParseReport {
        try reader.skipWhitespace()
        let documentStart = reader.offset
        var single: JSONValue?
        var singleTooLong: Int64?
        switch try reader.peek() {
        case 0x5B?:
            try readArray()
        case 0x7B?:
            let object = try readObject()
            if !object.sawSamples {
                if let length = object.tooLong {
                    guard object.hasType else { throw NativeParser.notSamples() }
                    singleTooLong = length
                } else {
                    single = .object(object.members)
                }
            }
        default:
            let at = (reader.offset, reader.line)
            guard case let .bytes(b) = try reader.captureValue(limit: NativeParser.maxValueBytes) else { throw NativeParser.notSamples() }
            single = try parse(b, at: at)
        }
        try reader.skipWhitespace()
        if try reader.peek() != nil { throw reader.error("unexpected data after the document") }
        sink.progress(bytesRead: reader.offset)
        if let single { return try NativeParser.documentSamples(single, into: sink) }
        if let singleTooLong {
            report.note(ParseProblem(offset: documentStart, message: "sample 1: " + NativeParser.oversize("it", length: singleTooLong)))
        }
        return report
    }

    /// Streams `[ sample, … ]` into the sink.
    private func readArray() throws {
        reader.skipByte()
        try reader.skipWhitespace()
        if try reader.peek() == 0x5D { reader.skipByte(); return }
        var n = 0
        while true {
            n += 1
            try reader.skipWhitespace()
            let at = (reader.offset, reader.line)
            switch try reader.captureValue(limit: NativeParser.maxValueBytes) {
            case let .oversize(length):
                report.note(ParseProblem(offset: at.0, line: at.1, message: "sample \(n): " + NativeParser.oversize("it", length: length)))
            case let .bytes(b):
                let (value, invalid) = try parseChecking(b, at: at)
                do {
                    try NativeParser.refuseInvalidUTF8(invalid, at: at.0)
                    try sink.accept(try NativeParser.sample(from: value))
                    report.samples += 1
                } catch let e as NativeParser.SampleFieldError {
                    report.note(ParseProblem(message: "sample \(n): \(e.reason)"))
                }
            }
            if reader.offset >= nextProgress {
                sink.progress(bytesRead: reader.offset)
                nextProgress = reader.offset + NativeParser.progressInterval
            }
            try reader.skipWhitespace()
            let next = try reader.peek()
            guard next == 0x2C || next == 0x5D else {
                throw reader.error(next == nil ? "unexpected end of input in an array" : "expected ',' or ']'")
            }
            reader.skipByte()
            if next == 0x5D { return }
        }
    }

    /// What a top-level object held besides a streamed `samples` array.
    struct Object {
        var members: [(String, JSONValue)] = []
        var sawSamples = false
        var hasType = false
        /// Set when its other members together pass the limit (they are then not kept).
        var tooLong: Int64?
    }

    /// Reads `{ … }`, streaming its first `samples` array and keeping its other members (at
    /// most the limit in all: a sample given as the whole document is no larger than one in an
    /// array).
    private func readObject() throws -> Object {
        reader.skipByte()
        var object = Object()
        var kept: Int64 = 0
        try reader.skipWhitespace()
        if try reader.peek() == 0x7D { reader.skipByte(); return object }
        while true {
            try reader.skipWhitespace()
            guard try reader.peek() == 0x22 else { throw reader.error("expected a member name") }
            let keyAt = (reader.offset, reader.line)
            guard case let .bytes(keyBytes) = try reader.captureValue(limit: NativeParser.maxValueBytes) else {
                throw JSONStreamReader.SyntaxError(offset: keyAt.0, line: keyAt.1,
                                                   reason: "a member name longer than \(NativeParser.maxValueBytes) bytes")
            }
            let key = try parse(keyBytes, at: keyAt).stringValue ?? ""
            try reader.skipWhitespace()
            guard try reader.peek() == 0x3A else { throw reader.error("expected ':'") }
            reader.skipByte()
            try reader.skipWhitespace()
            if key == "type" { object.hasType = true }
            if key == "samples", !object.sawSamples, try reader.peek() == 0x5B {
                object.sawSamples = true
                try readArray()
            } else {
                let at = (reader.offset, reader.line)
                switch try reader.captureValue(limit: NativeParser.maxValueBytes) {
                case let .oversize(length):
                    kept += length
                case let .bytes(b):
                    let value = try parse(b, at: at)
                    kept += Int64(b.count + keyBytes.count)
                    if kept <= Int64(NativeParser.maxValueBytes) { object.members.append((key, value)) }
                }
                if kept > Int64(NativeParser.maxValueBytes) {
                    object.members = []
                    object.tooLong = kept
                }
            }
            try reader.skipWhitespace()
            let next = try reader.peek()
            guard next == 0x2C || next == 0x7D else {
                throw reader.error(next == nil ? "unexpected end of input in an object" : "expected ',' or '}'")
            }
            reader.skipByte()
            if next == 0x7D { return object }
        }
    }

    /// Parses one captured value; a syntax error names its place in the file.
    private func parse(_ bytes: [UInt8], at: (offset: Int64, line: Int)) throws -> JSONValue {
        try parseChecking(bytes, at: at).0
    }

    /// Parses one captured value and lists its strings that are not UTF-8; a syntax error
    /// names its place in the file.
    private func parseChecking(_ bytes: [UInt8], at: (offset: Int64, line: Int)) throws -> (JSONValue, [JSONInvalidString]) {
        do {
            return try JSONParser.parseCheckingUTF8(bytes)
        } catch let e as JSONSyntaxError {
            let newlines = bytes[0..<min(e.offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw JSONStreamReader.SyntaxError(offset: at.offset + Int64(e.offset), line: at.line + newlines, reason: e.reason)
        }
    }
}
