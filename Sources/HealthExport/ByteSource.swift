import HealthSpoolCore

/// Random-access bytes: a file opened by the caller, or memory in tests. Parsers read through
/// this and never see a path.
public protocol ByteSource: AnyObject {
    /// Total size in bytes.
    var size: Int64 { get }
    /// Reads up to `buffer.count` bytes at `offset`; returns how many were read (0 at the end).
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Bytes held in memory.
public final class MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public convenience init(_ text: String) { self.init(Array(text.utf8)) }
    public var size: Int64 { Int64(bytes.count) }
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < size else { return 0 }
        let n = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + Int(offset), byteCount: n)
        }
        return n
    }
}

extension ByteSource {
    /// Reads the whole source into memory (for formats that are small by nature: JSON, CSV).
    public func readAll(limit: Int64 = 1 << 31) throws -> [UInt8] {
        guard size <= limit else { throw ImportError.tooLarge(size: size, limit: limit) }
        var out = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        try out.withUnsafeMutableBytes { buf in
            while done < buf.count {
                let n = try read(at: Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: buf[done...]))
                if n == 0 { break }
                done += n
            }
        }
        if done < out.count { out.removeLast(out.count - done) }
        return out
    }

    /// The first `count` bytes (or fewer, when the source is shorter), however few bytes each
    /// read gives.
    public func head(_ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        try out.withUnsafeMutableBytes { buf in
            while done < count {
                let n = try read(at: Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: buf[done...]))
                if n == 0 { break }
                done += n
            }
        }
        return Array(out[0..<done])
    }
}

/// Where parsed samples go. The importer batches them into the store.
public protocol SampleSink: AnyObject {
    /// Takes one sample. Throwing stops the parse.
    func accept(_ sample: consuming Sample) throws
    /// Takes samples in order, as `accept` one by one would (a sink can take them in one go).
    func accept(batch: [Sample]) throws
    /// Takes profile data (Apple Health's `Me` element): kept locally, never sent.
    func profile(_ attributes: [(String, String)])
    /// Says the input is a full Apple Health export (`export.xml`, alone or in `export.zip`)
    /// made at `exportDate`: every sample the phone held then is in it. Called before its
    /// first sample.
    func fullExport(exportDate: Timestamp)
    /// Reports progress: bytes of the input consumed so far.
    func progress(bytesRead: Int64)
}

extension SampleSink {
    public func accept(batch: [Sample]) throws {
        for s in batch { try accept(s) }
    }
    public func profile(_ attributes: [(String, String)]) {}
    public func fullExport(exportDate: Timestamp) {}
    public func progress(bytesRead: Int64) {}
}

/// A problem the parser recovered from (the rest of the file was still read).
public struct ParseProblem: Sendable, Equatable, CustomStringConvertible {
    /// Byte offset in the (decompressed) input, when known.
    public var offset: Int64?
    /// 1-based line, when known.
    public var line: Int?
    public var message: String

    public init(offset: Int64? = nil, line: Int? = nil, message: String) {
        self.offset = offset
        self.line = line
        self.message = message
    }

    /// The kind of problem: the message with the values in it masked (`'…'` for quoted values,
    /// `N` for numbers), so that 86 dates that could not be read are one kind with a count.
    public var kind: String {
        var out = ""
        var quoted = false
        var lastWasDigit = false
        for c in message {
            if quoted {
                if c == "'" { quoted = false; out.append("'") }
                continue
            }
            if c == "'" { quoted = true; out.append("'…"); lastWasDigit = false; continue }
            if c.isASCII, c.isNumber {
                if !lastWasDigit { out.append("N") }
                lastWasDigit = true
                continue
            }
            lastWasDigit = false
            out.append(c)
        }
        return out
    }

    public var description: String {
        var at = ""
        if let line { at += "line \(line)" }
        if let offset { at += (at.isEmpty ? "" : ", ") + "byte \(offset)" }
        return at.isEmpty ? message : "\(at): \(message)"
    }
}

/// What a parse found besides the samples.
public struct ParseReport: Sendable, Equatable {
    /// Samples handed to the sink.
    public var samples = 0
    /// Elements or rows that carried no usable sample, by reason.
    public var ignored: [String: Int] = [:]
    /// Problems recovered from. Capped; `problemCount` has the true number.
    public var problems: [ParseProblem] = []
    public var problemCount = 0
    /// Every problem counted by kind, in the order the kinds were first met, with the first
    /// few of each: a file with 86 problems names all of them, not only the first ten.
    public var problemKinds: [ProblemKind] = []

    /// Problems of one kind: how many, and the first `ParseReport.examplesPerKind`.
    public struct ProblemKind: Sendable, Equatable {
        public var kind: String
        public var count: Int
        public var examples: [ParseProblem]
    }

    /// Examples kept per kind.
    public static let examplesPerKind = 3
    /// Kinds told apart; problems of further kinds are counted under `otherKinds`.
    public static let maxKinds = 64
    static let otherKinds = "problems of other kinds"

    public init() {}

    /// Records a recovered problem (keeps the first 50, and counts it by kind).
    public mutating func note(_ p: ParseProblem) {
        problemCount += 1
        if problems.count < 50 { problems.append(p) }
        var kind = p.kind
        if let i = problemKinds.firstIndex(where: { $0.kind == kind }) {
            problemKinds[i].count += 1
            if problemKinds[i].examples.count < Self.examplesPerKind { problemKinds[i].examples.append(p) }
            return
        }
        if problemKinds.count >= Self.maxKinds - 1 {
            kind = Self.otherKinds
            if let i = problemKinds.firstIndex(where: { $0.kind == kind }) {
                problemKinds[i].count += 1
                if problemKinds[i].examples.count < Self.examplesPerKind { problemKinds[i].examples.append(p) }
                return
            }
        }
        problemKinds.append(ProblemKind(kind: kind, count: 1, examples: [p]))
    }
}

/// Why a file could not be imported (or only partly). The message names where and what to do.
public enum ImportError: Error, CustomStringConvertible, Equatable {
    /// The content is not valid for its format; samples before the problem were kept.
    case malformed(format: String, line: Int?, offset: Int64?, reason: String)
    /// The file is not in any format healthspool reads.
    case unrecognized(reason: String)
    /// The file ends early (truncated upload or zip).
    case truncated(format: String, offset: Int64, reason: String)
    /// The file is larger than this format allows in memory.
    case tooLarge(size: Int64, limit: Int64)
    /// The file is well formed but healthspool will not read it: an encrypted zip member, a
    /// compression method other than stored/deflate, a member past the decompression limits.
    /// Samples before the refusal were kept.
    case refused(format: String, offset: Int64?, reason: String)

    public var description: String {
        switch self {
        case let .malformed(format, line, offset, reason):
            var at = ""
            if let line { at = " at line \(line)" }
            if let offset { at += (line == nil ? " at" : ",") + " byte \(offset)" }
            return "malformed \(format)\(at): \(reason)"
        case let .unrecognized(reason):
            return "not a format healthspool reads (\(reason)); expected an Apple Health export.zip/export.xml, Health Auto Export JSON/CSV, native JSON/NDJSON or CSV (see healthspool-spool(7))"
        case let .truncated(format, offset, reason):
            return "truncated \(format) at byte \(offset): \(reason); samples before that point were kept"
        case let .tooLarge(size, limit):
            return "file of \(size) bytes exceeds the \(limit)-byte limit for this format"
        case let .refused(format, offset, reason):
            return "refused \(format)\(offset.map { " at byte \($0)" } ?? ""): \(reason)"
        }
    }
}
