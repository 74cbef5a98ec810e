/// An HTTP/1.x request line and header fields, parsed from bytes a client sent: the only part
/// of a request the ingest endpoint reads before deciding to take the body. Strict on purpose
/// (RFC 9112): anything unusual is refused rather than guessed at.
public struct RequestHead: Sendable, Equatable {
    public var method: String
    /// The request target as sent (`/ingest`, `/ingest?x=1`).
    public var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// Header fields in order, names lower-cased, values with surrounding blanks removed.
    public var fields: [(name: String, value: String)]

    /// The largest head accepted, request line and fields together.
    public static let maxBytes = 16 * 1024
    /// The most header fields accepted.
    public static let maxFields = 100

    public static func == (a: RequestHead, b: RequestHead) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version
            && a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The path of the target, without its query.
    public var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }

    /// Every value of the field `name` (lower case).
    public func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// The one value of `name`; nil when absent. Several differing values are an error.
    public func value(_ name: String) throws(RequestHeadError) -> String? {
        let all = values(name)
        guard let first = all.first else { return nil }
        guard all.allSatisfy({ $0 == first }) else { throw .invalid("the header \(name) is given \(all.count) times with different values") }
        return first
    }

    /// The body's length from Content-Length; nil when absent.
    public func contentLength() throws(RequestHeadError) -> Int? {
        // A list ("5, 5") is allowed by RFC 9110 when all equal; it is refused here as too clever.
        guard let text = try value("content-length") else { return nil }
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text) else {
            throw .invalid("Content-Length '\(RequestHead.printable(text))' is not a whole number of bytes")
        }
        return n
    }

    /// Where the head ends in `bytes` (the index just after the blank line), nil while not
    /// there; the search starts at `from` (what was already searched, less 3 bytes).
    public static func end(in bytes: [UInt8], from: Int = 0) -> Int? {
        var i = max(3, from)
        while i < bytes.count {
            if bytes[i] == 0x0A && bytes[i - 1] == 0x0D && bytes[i - 2] == 0x0A && bytes[i - 3] == 0x0D { return i + 1 }
            i += 1
        }
        return nil
    }

    /// Parses a complete head (up to and including the blank line).
    public static func parse(_ bytes: some Collection<UInt8>) throws(RequestHeadError) -> RequestHead {
        let bytes = Array(bytes)
        guard bytes.count <= maxBytes else { throw .tooLarge }
        guard bytes.count >= 4, bytes.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) else {
            throw .invalid("the request head does not end with an empty line")
        }
        // Lines end with CRLF; a bare CR or LF anywhere is refused.
        var lines: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i < bytes.count - 2 {
            let b = bytes[i]
            if b == 0x0D {
                guard bytes[i + 1] == 0x0A else { throw .invalid("a bare carriage return in the request head") }
                lines.append(bytes[start..<i])
                i += 2
                start = i
                continue
            }
            if b == 0x0A { throw .invalid("a line of the request head ends without a carriage return") }
            i += 1
        }
        guard let requestLine = lines.first else { throw .invalid("no request line") }
        let (method, target, version) = try parseRequestLine(requestLine)
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard fields.count < maxFields else { throw .invalid("more than \(maxFields) header fields") }
            fields.append(try parseField(line))
        }
        return RequestHead(method: method, target: target, version: version, fields: fields)
    }

    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(RequestHeadError) -> (String, String, String) {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .invalid("the request line is not METHOD TARGET HTTP/1.1") }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard !method.isEmpty, method.allSatisfy(isTokenByte) else { throw .invalid("the method is not a valid token") }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalid("the request target is empty or has characters outside visible ASCII")
        }
        let versionText = String(decoding: version, as: UTF8.self)
        guard versionText == "HTTP/1.1" || versionText == "HTTP/1.0" else {
            throw .unsupportedVersion(printable(versionText))
        }
        return (String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), versionText)
    }

    static func parseField(_ line: ArraySlice<UInt8>) throws(RequestHeadError) -> (name: String, value: String) {
        guard let first = line.first else { throw .invalid("an empty header line") }
        guard first != 0x20 && first != 0x09 else { throw .invalid("a folded header line (obsolete line folding is not accepted)") }
        guard let colon = line.firstIndex(of: 0x3A) else { throw .invalid("a header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw .invalid("the header name '\(printable(String(decoding: name, as: UTF8.self)))' is not a valid token")
        }
        var value = line[(colon + 1)...]
        while let b = value.first, b == 0x20 || b == 0x09 { value = value.dropFirst() }
        while let b = value.last, b == 0x20 || b == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .invalid("the header \(String(decoding: name, as: UTF8.self).lowercased()) has a control character")
        }
        return (String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// RFC 9110 token characters.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    /// Text from a client, cut short and with anything unprintable replaced, for a message.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}

/// Why a request head was refused; each maps to one status code.
public enum RequestHeadError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Bigger than `RequestHead.maxBytes` (431).
    case tooLarge
    /// Not HTTP/1.0 or HTTP/1.1 (505).
    case unsupportedVersion(String)
    /// Malformed (400), with the reason.
    case invalid(String)

    public var description: String {
        switch self {
        case .tooLarge: "the request head is larger than \(RequestHead.maxBytes) bytes"
        case .unsupportedVersion(let v): "HTTP version '\(v)' is not supported; use HTTP/1.1"
        case .invalid(let reason): reason
        }
    }

    /// The status the endpoint answers with.
    public var status: Int {
        switch self {
        case .tooLarge: 431
        case .unsupportedVersion: 505
        case .invalid: 400
        }
    }
}
