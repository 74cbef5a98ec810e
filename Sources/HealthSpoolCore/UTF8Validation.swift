/// Checks that bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// past U+10FFFF), so that a damaged byte in an export is reported where it is instead of
/// turning silently into U+FFFD (a new type named `he\u{FFFD}(rt`).
public enum UTF8Validation {
    /// The index of the first byte that does not start a well-formed sequence, or nil.
    public static func firstInvalidByte(_ b: UnsafeRawBufferPointer) -> Int? {
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= n else { return i }
            let second = b[i + 1]
            guard second >= low, second <= high else { return i }
            var k = 2
            while k < length {
                guard b[i + k] & 0xC0 == 0x80 else { return i }
                k += 1
            }
            i += length
        }
        return nil
    }

    /// The same check over an array or slice of bytes.
    public static func firstInvalidByte<C: Collection<UInt8>>(_ bytes: C) -> Int? {
        if let r = bytes.withContiguousStorageIfAvailable({ firstInvalidByte(UnsafeRawBufferPointer($0)) }) { return r }
        return Array(bytes).withUnsafeBytes { firstInvalidByte($0) }
    }
}
