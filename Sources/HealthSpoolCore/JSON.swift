/// A parsed JSON value. Objects keep their members in document order.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member named `key` of an object (first match), else nil.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case let .string(s) = self { s } else { nil } }
    public var doubleValue: Double? {
        switch self {
        case let .number(d): d
        case let .string(s): Double(s.trimmingSpaces)
        default: nil
        }
    }
    public var intValue: Int? { doubleValue.flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil } }
    public var boolValue: Bool? { if case let .bool(b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case let .array(a) = self { a } else { nil } }
    public var objectValue: [(String, JSONValue)]? { if case let .object(o) = self { o } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }
}

extension String {
    /// The string without leading and trailing ASCII white space.
    public var trimmingSpaces: String {
        let u = utf8
        guard let first = u.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return "" }
        let last = u.lastIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })!
        return String(self[first...last])
    }
}

/// A JSON syntax error with the byte offset where it was found.
public struct JSONSyntaxError: Error, CustomStringConvertible, Sendable {
    public let offset: Int
    public let reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A string in a JSON document whose bytes are not UTF-8: where the bad byte is, and the path
/// of members and array indices that leads to the string.
public struct JSONInvalidString: Sendable, Equatable {
    /// One step of a path: an object member or an array element.
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }
    /// Byte offset of the first byte that is not UTF-8.
    public var offset: Int
    /// From the document's root to the string (a member name's own path ends at its object).
    public var path: [Step]
}

/// A strict RFC 8259 parser over UTF-8 bytes, with a nesting limit.
public struct JSONParser {
    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    private var depth = 0
    private let maxDepth = 256
    /// Whether strings are checked for bytes that are not UTF-8 (then listed in `invalid`).
    private var checksUTF8 = false
    private var invalid: [JSONInvalidString] = []

    /// Parses one JSON document and lists the strings whose bytes are not UTF-8 (they are in
    /// the document with U+FFFD in place of the bad bytes): the caller refuses what holds them.
    public static func parseCheckingUTF8(_ data: [UInt8]) throws -> (JSONValue, [JSONInvalidString]) {
        try data.withUnsafeBytes { buf in
            var p = JSONParser(bytes: buf)
            p.checksUTF8 = true
            p.skipWhitespace()
            let v = try p.value()
            p.skipWhitespace()
            guard p.i == buf.count else { throw p.error("unexpected data after the document") }
            return (v, p.invalid)
        }
    }

    /// Notes a string's bytes (from `start`) that are not UTF-8.
    private mutating func check(_ raw: UnsafeRawBufferPointer, from start: Int) {
        if let bad = UTF8Validation.firstInvalidByte(raw) { invalid.append(JSONInvalidString(offset: start + bad, path: [])) }
    }

    /// Puts `step` in front of the paths of the invalid strings found since `count`.
    private mutating func prefix(_ step: JSONInvalidString.Step, since count: Int) {
        guard invalid.count > count else { return }
        for j in count..<invalid.count { invalid[j].path.insert(step, at: 0) }
    }

    /// Parses one JSON document from `data`.
    public static func parse(_ data: [UInt8]) throws -> JSONValue {
        try data.withUnsafeBytes { buf in
            var p = JSONParser(bytes: buf)
            p.skipWhitespace()
            let v = try p.value()
            p.skipWhitespace()
            guard p.i == buf.count else { throw p.error("unexpected data after the document") }
            return v
        }
    }

    /// Parses one JSON document from a string.
    public static func parse(_ text: String) throws -> JSONValue { try parse(Array(text.utf8)) }

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: i, reason: reason) }

    private mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value() throws -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end of input") }
        switch bytes[i] {
        case 0x7B: return try object()
        case 0x5B: return try array()
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw error("unexpected end of input") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw error("invalid literal") }
        i += n
    }

    private mutating func object() throws -> JSONValue {
        depth += 1
        guard depth <= maxDepth else { throw error("nested too deeply") }
        defer { depth -= 1 }
        i += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == 0x7D { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == 0x22 else { throw error("expected a member name") }
            let before = invalid.count
            let key = try string()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':'") }
            i += 1
            skipWhitespace()
            let valueBefore = invalid.count
            members.append((key, try value()))
            if invalid.count > before { prefix(.key(key), since: valueBefore) }
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x7D { i += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func array() throws -> JSONValue {
        depth += 1
        guard depth <= maxDepth else { throw error("nested too deeply") }
        defer { depth -= 1 }
        i += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == 0x5D { i += 1; return .array(items) }
        while true {
            skipWhitespace()
            let before = invalid.count
            items.append(try value())
            if invalid.count > before { prefix(.index(items.count - 1), since: before) }
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x5D { i += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func number() throws -> Double {
        let start = i
        if i < bytes.count, bytes[i] == 0x2D { i += 1 }
        var sawDigit = false
        while i < bytes.count {
            let c = bytes[i]
            if c >= 0x30 && c <= 0x39 { sawDigit = true; i += 1 }
            else if c == 0x2E || c == 0x65 || c == 0x45 || c == 0x2B || c == 0x2D { i += 1 }
            else { break }
        }
        guard sawDigit else { i = start; throw error("expected a value") }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let d = Double(text) else { throw JSONSyntaxError(offset: start, reason: "invalid number '\(text)'") }
        // Past ±1.8e308 a number reads as infinity, which JSON cannot write back (it would become null).
        guard d.isFinite else {
            throw JSONSyntaxError(offset: start, reason: "number '\(text.prefix(40))' is too large (the limit is ±1.8e308); write it as a finite number")
        }
        return d
    }

    private mutating func string() throws -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x22 {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
                if checksUTF8 { check(raw, from: start) }
                let s = String(decoding: raw, as: UTF8.self)
                i += 1
                return s
            }
            if c == 0x5C { break }
            if c < 0x20 { throw error("control character in a string") }
            i += 1
        }
        var out = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x22 {
                i += 1
                if checksUTF8 { out.withUnsafeBytes { check($0, from: start) } }
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw error("control character in a string") }
            if c != 0x5C { out.append(c); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 {
                    i += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        i -= 6   // a lone high surrogate (U+FFFD); the next escape is read on its own
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("invalid escape")
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            default: throw error("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}

/// Appends JSON text to a byte buffer. Keys are written in the order given.
public struct JSONWriter {
    /// The bytes written so far.
    public var bytes: [UInt8] = []
    /// The last day `timestamp` turned into a civil date (timestamps in a batch share days).
    var lastDay: (days: Int64, date: CivilDate)?

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// Appends raw, already-valid JSON text (punctuation, literals).
    @inline(__always) public mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Appends a quoted, escaped string.
    public mutating func string(_ s: String) {
        // Fast path: most strings need no escaping; copy their UTF-8 in one go.
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { buf in
            for c in buf where c < 0x20 || c == 0x22 || c == 0x5C { return false }
            bytes.append(0x22)
            bytes.append(contentsOf: buf)
            bytes.append(0x22)
            return true
        }
        if copied == true { return }
        bytes.append(0x22)
        for c in s.utf8 {
            switch c {
            case 0x22: bytes.append(0x5C); bytes.append(0x22)
            case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
            case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
            case 0x0D: bytes.append(0x5C); bytes.append(0x72)
            case 0x09: bytes.append(0x5C); bytes.append(0x74)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xf)]])
            default: bytes.append(c)
            }
        }
        bytes.append(0x22)
    }

    /// Appends a number; non-finite values become `null`. Integral values are written without a
    /// fraction, like `SampleIdentity.canonicalNumber`.
    public mutating func number(_ v: Double) {
        if JSONBytes.isPlainInteger(v) { number(Int64(v)) } else { bytes.append(contentsOf: JSONBytes.nonIntegerText(v).utf8) }
    }

    /// Appends an integer.
    public mutating func number(_ v: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buf in
            let n = JSONBytes.integer(v, into: buf.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buf[0..<n]))
        }
    }

    /// Appends `"key":`.
    public mutating func key(_ k: String) { string(k); bytes.append(0x3A) }

    /// Appends an object of string members, keys sorted: sample metadata as the store keeps it
    /// and the encoder sends it.
    public mutating func sortedObject(_ m: [String: String]) {
        raw("{")
        if m.count == 1, let (k, v) = m.first {
            key(k); string(v)
        } else {
            for (n, k) in m.keys.sorted().enumerated() {
                if n > 0 { raw(",") }
                key(k); string(m[k]!)
            }
        }
        raw("}")
    }

    /// Appends a whole JSONValue.
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: raw("null")
        case let .bool(b): if b { raw("true") } else { raw("false") }
        case let .number(d): number(d)
        case let .string(s): string(s)
        case let .array(items):
            raw("[")
            for (n, item) in items.enumerated() { if n > 0 { raw(",") }; value(item) }
            raw("]")
        case let .object(members):
            raw("{")
            for (n, (k, item)) in members.enumerated() { if n > 0 { raw(",") }; key(k); value(item) }
            raw("}")
        }
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
