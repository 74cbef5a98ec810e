import HealthSpoolCore

/// A tolerant, streaming XML tag scanner built for Apple Health exports.
///
/// It reads fixed-size chunks from a `ByteStream` and reports one tag at a time (start,
/// empty-element or end tag) with its attributes as byte ranges into its buffer, valid until
/// the next call to `next()`. Text between tags, comments, processing instructions and CDATA
/// are skipped. The document type declaration is skipped without being interpreted: no entity
/// is ever declared, expanded or fetched, so a "billion laughs" DTD costs nothing, and the
/// broken internal DTD of iOS 16 exports (a declaration missing its `>`) is harmless.
///
/// Tolerances for real exports: attribute names containing spaces (iOS 8.3), control
/// characters such as `\u{0B}` inside values (stripped when decoded), `<` and `>` inside quoted
/// values. Memory is bounded by the buffer, which grows only for a single tag larger than it,
/// up to `maxTagBytes`.
final class XMLTagScanner {
    /// What `next()` found.
    enum Event: Equatable {
        /// A start tag `<name …>`; its end tag follows later.
        case start
        /// An empty-element tag `<name …/>`.
        case empty
        /// An end tag `</name>`.
        case end
        /// The end of the input. `insideTag` tells whether it came in the middle of markup.
        case eof(insideMarkup: Bool)
    }

    /// One attribute of the current tag, as byte offsets into `bytes`.
    struct Attribute {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
        /// The value holds `&` or control characters and must go through `decode`.
        var needsDecoding: Bool
    }

    /// Largest single tag accepted before the input is called malformed.
    static let maxTagBytes = 16 << 20

    // The stored properties the parse reads and writes for every byte or record are
    // `@exclusivity(unchecked)`: no dynamic exclusivity check on each access (the rest of the
    // package builds with them). Measured: BENCHMARKS.md, "Exclusivity checks (paired)".
    private let stream: ByteStream
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var pos = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEOF = false
    /// Stream offset of `bytes[0]`.
    @exclusivity(unchecked) private var base: Int64 = 0
    /// 1-based line of `pos` (counted between tags and inside skipped markup; newlines inside
    /// attribute values are counted too).
    @exclusivity(unchecked) private(set) var line = 1

    /// The current tag's name, as byte offsets.
    @exclusivity(unchecked) private(set) var nameStart = 0
    @exclusivity(unchecked) private(set) var nameEnd = 0
    /// The current tag's attributes (the first `attributeCount` are valid).
    @exclusivity(unchecked) private(set) var attributes: UnsafeMutablePointer<Attribute>
    @exclusivity(unchecked) private(set) var attributeCount = 0
    @exclusivity(unchecked) private var attributeCapacity = 32
    /// Stream offset and line where the current tag starts.
    @exclusivity(unchecked) private(set) var tagOffset: Int64 = 0
    @exclusivity(unchecked) private(set) var tagLine = 1

    init(_ stream: ByteStream, chunkSize: Int = 1 << 20) {
        self.stream = stream
        self.capacity = chunkSize
        self.bytes = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        self.attributes = UnsafeMutablePointer<Attribute>.allocate(capacity: attributeCapacity)
    }

    deinit {
        bytes.deallocate()
        attributes.deallocate()
    }

    /// Stream offset of the next unread byte.
    var offset: Int64 { base + Int64(pos) }

    /// The current tag's name.
    var name: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes + nameStart, count: nameEnd - nameStart) }

    /// The bytes of the current tag's attribute `i`'s name.
    @inline(__always) func attributeName(_ i: Int) -> UnsafeRawBufferPointer {
        let a = attributes[i]
        return UnsafeRawBufferPointer(start: bytes + a.nameStart, count: a.nameEnd - a.nameStart)
    }

    /// The byte offset in the input of attribute `i`'s value.
    func valueOffset(_ i: Int) -> Int64 { base + Int64(attributes[i].valueStart) }

    /// The raw (undecoded) bytes of attribute `i`'s value.
    @inline(__always) func rawValue(_ i: Int) -> UnsafeRawBufferPointer {
        let a = attributes[i]
        return UnsafeRawBufferPointer(start: bytes + a.valueStart, count: a.valueEnd - a.valueStart)
    }

    // MARK: - Scanning

    /// Scans to the next tag.
    func next() throws -> Event {
        while true {
            // Text between tags: skipped, newlines counted.
            var p = pos
            while true {
                while p < end {
                    let c = bytes.load(fromByteOffset: p, as: UInt8.self)
                    if c == 0x3C { break }
                    if c == 0x0A { line += 1 }
                    p += 1
                }
                pos = p
                if p < end { break }
                if try !refill() { return .eof(insideMarkup: false) }
                p = pos
            }
            guard try ensure(2) else { return .eof(insideMarkup: true) }
            tagOffset = offset
            tagLine = line
            switch byte(pos + 1) {
            case 0x3F: // <? … ?>
                guard try skip(past: "?>", from: 2) else { return .eof(insideMarkup: true) }
            case 0x21: // <!…
                _ = try ensure(9)
                if matches("<!--") {
                    guard try skip(past: "-->", from: 4) else { return .eof(insideMarkup: true) }
                } else if matches("<![CDATA[") {
                    guard try skip(past: "]]>", from: 9) else { return .eof(insideMarkup: true) }
                } else if matches("<!DOCTYPE") {
                    guard try skipDoctype() else { return .eof(insideMarkup: true) }
                } else {
                    guard try skip(past: ">", from: 2) else { return .eof(insideMarkup: true) }
                }
            case 0x2F: // </name>
                guard let done = try complete({ scanEndTag() }) else { return .eof(insideMarkup: true) }
                if done { return .end }
            default:
                guard let event = try complete({ scanStartTag() }) else { return .eof(insideMarkup: true) }
                if let event { return event }
            }
        }
    }

    /// Runs `attempt` until it has the whole tag in the buffer, refilling as needed. Nil when
    /// the input ends first.
    private func complete<T>(_ attempt: () -> T?) throws -> T? {
        while true {
            if let result = attempt() { return result }
            if atEOF { return nil }
            try refillMore()
        }
    }

    @inline(__always) private func byte(_ i: Int) -> UInt8 { bytes.load(fromByteOffset: i, as: UInt8.self) }

    private func matches(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard end - pos >= n else { return false }
        return memcmp(bytes + pos, s.utf8Start, n) == 0
    }

    /// Non-zero when some byte of `w` is zero.
    @inline(__always) private static func zeroByte(_ w: UInt64) -> UInt64 {
        (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    /// Scans `<name attr="v" …>` at `pos`. Returns nil when incomplete; `.some(nil)` when the
    /// `<` did not start a tag (skipped as text). The hot loop: it works on locals only (no
    /// property access inside, so no dynamic exclusivity checks).
    private func scanStartTag() -> Event?? {
        let b = UnsafePointer<UInt8>(bytes.assumingMemoryBound(to: UInt8.self))
        let end = self.end
        var p = pos + 1
        var newlines = 0
        let ns0 = p
        while p < end {
            let c = b[p]
            if Self.isSpace(c) || c == 0x2F || c == 0x3E || c == 0x3C { break }
            p += 1
        }
        guard p < end else { return nil }
        if p == ns0 {
            pos += 1        // a lone '<' in text
            return .some(nil)
        }
        nameStart = ns0
        nameEnd = p
        var attrs = attributes
        var count = 0
        var capacity = attributeCapacity
        var result: Event
        scan: while true {
            while p < end, Self.isSpace(b[p]) { if b[p] == 0x0A { newlines += 1 }; p += 1 }
            guard p < end else { return nil }
            var c = b[p]
            if c == 0x3E { p += 1; result = .start; break scan }
            if c == 0x2F {
                guard p + 1 < end else { return nil }
                if b[p + 1] == 0x3E { p += 2; result = .empty; break scan }
                p += 1
                continue
            }
            if c == 0x3C { result = .start; break scan }   // '<' where an attribute should be: the tag was never closed
            // Attribute name, up to '=' (spaces allowed: iOS 8.3 wrote "Health Mate App Version=").
            let ns = p
            while p < end {
                c = b[p]
                if c == 0x3D || c == 0x3E || c == 0x3C || c == 0x22 || c == 0x27 { break }
                if c == 0x2F, p + 1 < end, b[p + 1] == 0x3E { break }
                if c == 0x0A { newlines += 1 }
                p += 1
            }
            guard p < end else { return nil }
            if c != 0x3D { // a name without a value: dropped
                if c == 0x22 || c == 0x27 { p += 1 }
                continue
            }
            var ne = p
            while ne > ns, Self.isSpace(b[ne - 1]) { ne -= 1 }
            p += 1
            while p < end, Self.isSpace(b[p]) { if b[p] == 0x0A { newlines += 1 }; p += 1 }
            guard p < end else { return nil }
            let q = b[p]
            let vs: Int, ve: Int
            var decode = false
            if q == 0x22 || q == 0x27 {
                p += 1
                vs = p
                let quotes = UInt64(q) &* 0x0101_0101_0101_0101
                while true {
                    // Eight bytes at a time while none is the quote, '&' or a control character.
                    while p + 8 <= end {
                        let w = UnsafeRawPointer(b + p).loadUnaligned(as: UInt64.self)
                        if (Self.zeroByte(w ^ quotes) | Self.zeroByte(w ^ 0x2626_2626_2626_2626)
                            | ((w &- 0x2020_2020_2020_2020) & ~w & 0x8080_8080_8080_8080)) != 0 { break }
                        p += 8
                    }
                    guard p < end else { break }
                    let v = b[p]
                    if v == q { break }
                    if v < 0x20 {
                        if v == 0x0A { newlines += 1 }
                        decode = true
                    } else if v == 0x26 {
                        decode = true
                    }
                    p += 1
                }
                guard p < end else { return nil }
                ve = p
                p += 1
            } else { // unquoted value: up to whitespace or the end of the tag
                vs = p
                while p < end {
                    let v = b[p]
                    if Self.isSpace(v) || v == 0x3E { break }
                    if v == 0x2F, p + 1 < end, b[p + 1] == 0x3E { break }
                    if v == 0x26 || v < 0x20 { decode = true }
                    p += 1
                }
                guard p < end else { return nil }
                ve = p
            }
            if ne > ns {
                if count == capacity {
                    attributeCount = count
                    growAttributes()
                    attrs = attributes
                    capacity = attributeCapacity
                }
                attrs[count] = Attribute(nameStart: ns, nameEnd: ne, valueStart: vs, valueEnd: ve, needsDecoding: decode)
                count += 1
            }
        }
        attributeCount = count
        pos = p
        line += newlines
        return .some(result)
    }

    private func growAttributes() {
        let bigger = UnsafeMutablePointer<Attribute>.allocate(capacity: attributeCapacity * 2)
        bigger.moveInitialize(from: attributes, count: attributeCount)
        attributes.deallocate()
        attributes = bigger
        attributeCapacity *= 2
    }

    /// Scans `</name …>` at `pos`. Nil when incomplete; `false` when it is not an end tag.
    private func scanEndTag() -> Bool? {
        var p = pos + 2
        nameStart = p
        while p < end {
            let c = byte(p)
            if Self.isSpace(c) || c == 0x3E || c == 0x3C { break }
            p += 1
        }
        guard p < end else { return nil }
        nameEnd = p
        var newlines = 0
        while p < end, byte(p) != 0x3E, byte(p) != 0x3C { if byte(p) == 0x0A { newlines += 1 }; p += 1 }
        guard p < end else { return nil }
        attributeCount = 0
        pos = byte(p) == 0x3E ? p + 1 : p
        line += newlines
        return true
    }

    /// Skips from `pos + from` to just past `pattern`, reading on as needed. False at EOF.
    private func skip(past pattern: StaticString, from: Int) throws -> Bool {
        let n = pattern.utf8CodeUnitCount
        let first = pattern.utf8Start[0]
        var p = pos + from
        while true {
            while p + n <= end {
                let c = byte(p)
                if c == first, memcmp(bytes + p, pattern.utf8Start, n) == 0 {
                    pos = p + n
                    return true
                }
                if c == 0x0A { line += 1 }
                p += 1
            }
            pos = p
            if try !refill() { pos = end; return false }
            p = pos
        }
    }

    /// Skips `<!DOCTYPE name [ … ]>` without interpreting it. The internal subset ends at the
    /// first `]` followed by `>`; comments inside it are skipped; a `<HealthData` start tag also
    /// ends it (a DTD broken so badly that its `]>` is gone).
    private func skipDoctype() throws -> Bool {
        pos += 9
        var inSubset = false
        while true {
            guard try ensure(1) else { return false }
            let c = byte(pos)
            if c == 0x0A { line += 1 }
            if !inSubset {
                if c == 0x5B { inSubset = true } else if c == 0x3E { pos += 1; return true }
                pos += 1
                continue
            }
            if c == 0x5D {
                var k = 1
                var newlines = 0
                while try ensure(k + 1) {
                    let d = byte(pos + k)
                    if Self.isSpace(d) { if d == 0x0A { newlines += 1 }; k += 1; continue }
                    if d == 0x3E { pos += k + 1; line += newlines; return true }
                    break
                }
            } else if c == 0x3C {
                _ = try ensure(11)
                if matches("<!--") {
                    guard try skip(past: "-->", from: 4) else { return false }
                    continue
                }
                if matches("<HealthData") { return true }
            }
            pos += 1
        }
    }

    // MARK: - Buffer

    /// Makes at least `n` bytes available from `pos`; false when the input ends first.
    private func ensure(_ n: Int) throws -> Bool {
        while end - pos < n {
            if atEOF { return false }
            try refillMore()
        }
        return true
    }

    /// Reads more when everything from `pos` has been consumed. False at the end of input.
    private func refill() throws -> Bool {
        if atEOF { return false }
        try refillMore()
        return end > pos || !atEOF
    }

    /// Moves the unread bytes to the front, grows the buffer when a single tag fills it, and
    /// reads the next chunk.
    private func refillMore() throws {
        if pos > 0 {
            let keep = end - pos
            if keep > 0 { memmove(bytes, bytes + pos, keep) }
            base += Int64(pos)
            nameStart -= pos; nameEnd -= pos
            end = keep
            pos = 0
        }
        if end == capacity {
            guard capacity < Self.maxTagBytes else {
                throw ImportError.malformed(format: "Apple Health XML", line: line, offset: offset,
                                            reason: "a single tag is longer than \(Self.maxTagBytes >> 20) MiB")
            }
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
            bigger.copyMemory(from: bytes, byteCount: end)
            bytes.deallocate()
            bytes = bigger
            capacity *= 2
        }
        let n = try stream.read(into: UnsafeMutableRawBufferPointer(start: bytes + end, count: capacity - end))
        if n == 0 { atEOF = true } else { end += n }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
