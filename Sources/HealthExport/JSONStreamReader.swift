#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthSpoolCore

/// Reads JSON text from a stream in fixed-size chunks, one value or one line at a time, keeping
/// at most `limit` bytes of any of them: what a streaming parser needs to hand each array
/// element to `JSONParser` on its own, with memory that stays flat whatever the file's size.
///
/// It finds where a value ends (brackets, strings and escapes); `JSONParser` checks the value's
/// grammar. It counts bytes and lines as it goes, so every error can say where it is.
final class JSONStreamReader {
    /// A value or line as read: its bytes, or only its length when it was longer than the limit
    /// (its bytes were not kept).
    enum Captured {
        case bytes([UInt8])
        case oversize(length: Int64)
    }

    /// Where the JSON text stops being JSON: the byte (in the file) and the 1-based line.
    struct SyntaxError: Error {
        let offset: Int64
        let line: Int
        let reason: String
    }

    private let stream: ByteStream
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// The file offset of the next byte.
    private(set) var offset: Int64
    /// The 1-based line of the next byte.
    private(set) var line = 1

    /// Reads `stream`, whose first byte is at `offset` in the file, `chunkSize` bytes at a time.
    init(_ stream: ByteStream, offset: Int64 = 0, chunkSize: Int = 64 << 10) {
        self.stream = stream
        self.offset = offset
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    func error(_ reason: String) -> SyntaxError { SyntaxError(offset: offset, line: line, reason: reason) }

    /// The next byte without consuming it; nil at the end of the input.
    func peek() throws -> UInt8? {
        if start == end, try !refill() { return nil }
        return buffer[start]
    }

    /// Consumes one byte (after `peek` returned it).
    func skipByte() {
        if buffer[start] == 0x0A { line += 1 }
        start += 1
        offset += 1
    }

    /// Consumes spaces, tabs, carriage returns and newlines.
    func skipWhitespace() throws {
        while let b = try peek() {
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            skipByte()
        }
    }

    /// Consumes one complete value (object, array, string, or scalar up to the next `,` `]` `}`
    /// or white space). Throws at the end of input or where no value can start.
    func captureValue(limit: Int) throws -> Captured {
        guard let first = try peek() else { throw error("unexpected end of input") }
        let valueStart = (offset, line)
        var depth = 0
        var inString = false
        var escaped = false
        let scalar: Bool
        switch first {
        case 0x2C, 0x5D, 0x7D, 0x3A: throw error("expected a value")
        case 0x7B, 0x5B, 0x22: scalar = false
        default: scalar = true
        }
        var capture = Capture(limit: limit)
        while true {
            if start == end, try !refill() {
                if scalar { return capture.result }
                throw SyntaxError(offset: offset, line: line,
                                  reason: "unexpected end of input inside the value that starts at line \(valueStart.1), byte \(valueStart.0)")
            }
            let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var i = start
            var done = false
            while i < end {
                let b = p[i]
                if scalar {
                    if b == 0x2C || b == 0x5D || b == 0x7D || b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { done = true; break }
                    i += 1
                    continue
                }
                i += 1
                if inString {
                    if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 {
                        inString = false
                        if depth == 0 { done = true; break }
                    }
                } else if b == 0x22 {
                    inString = true
                } else if b == 0x7B || b == 0x5B {
                    depth += 1
                } else if b == 0x7D || b == 0x5D {
                    depth -= 1
                    if depth == 0 { done = true; break }
                }
            }
            consume(upTo: i, into: &capture)
            if done { return capture.result }
        }
    }

    /// Consumes one line and its `\n`; nil at the end of input.
    func captureLine(limit: Int) throws -> Captured? {
        if start == end, try !refill() { return nil }
        var capture = Capture(limit: limit)
        while true {
            if start == end, try !refill() { return capture.result }
            let window = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            if let nl = memchr(window.baseAddress!, 0x0A, window.count) {
                let i = start + (UnsafeRawPointer(nl) - window.baseAddress!)
                consume(upTo: i, into: &capture)
                skipByte()
                return capture.result
            }
            consume(upTo: end, into: &capture)
        }
    }

    /// The bytes of one value being captured, kept up to the limit.
    private struct Capture {
        let limit: Int
        var bytes: [UInt8] = []
        var length: Int64 = 0
        var result: Captured { length > Int64(limit) ? .oversize(length: length) : .bytes(bytes) }

        mutating func append(_ chunk: UnsafeRawBufferPointer) {
            length += Int64(chunk.count)
            if length <= Int64(limit) { bytes.append(contentsOf: chunk) } else if !bytes.isEmpty { bytes = [] }
        }
    }

    /// Moves the read position to `i` in the buffer, keeping the bytes passed over.
    private func consume(upTo i: Int, into capture: inout Capture) {
        guard i > start else { return }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[start..<i])
        capture.append(chunk)
        for b in chunk where b == 0x0A { line += 1 }
        offset += Int64(i - start)
        start = i
    }

    private func refill() throws -> Bool {
        start = 0
        end = try stream.read(into: buffer)
        return end > 0
    }
}
