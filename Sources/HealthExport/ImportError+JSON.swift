import HealthSpoolCore

extension ImportError {
    /// A JSON syntax error as `malformed`, naming the line and byte where it was found.
    static func malformedJSON(_ e: JSONSyntaxError, format: String, in bytes: [UInt8], hint: String) -> ImportError {
        var line = 1
        for b in bytes[0..<min(e.offset, bytes.count)] where b == 0x0A { line += 1 }
        return .malformed(format: format, line: line, offset: Int64(e.offset), reason: "\(e.reason); \(hint)")
    }
}

extension Array where Element == UInt8 {
    /// The bytes without a leading UTF-8 byte-order mark (editors on Windows write one; the
    /// JSON grammar does not allow it).
    var withoutByteOrderMark: [UInt8] {
        starts(with: [0xEF, 0xBB, 0xBF]) ? Array(dropFirst(3)) : self
    }
}
