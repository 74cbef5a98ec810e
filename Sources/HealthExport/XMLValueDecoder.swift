/// Decodes XML attribute values: the five predefined entities and numeric character
/// references only. Any other entity reference is left as written (never expanded), and
/// control characters that XML forbids (`\u{0B}` in real exports) are dropped.
enum XMLValueDecoder {
    /// The decoded text, and whether an entity reference was left unexpanded.
    static func decode(_ raw: UnsafeRawBufferPointer) -> (String, unexpanded: Bool) {
        var out = [UInt8]()
        out.reserveCapacity(raw.count)
        var unexpanded = false
        var i = 0
        let n = raw.count
        while i < n {
            let c = raw[i]
            if c == 0x26 {
                var j = i + 1
                while j < n, j - i <= 12, raw[j] != 0x3B, raw[j] != 0x26 { j += 1 }
                if j < n, raw[j] == 0x3B, let scalar = reference(raw, from: i + 1, to: j) {
                    if let s = scalar { appendUTF8(s, to: &out) }
                    i = j + 1
                    continue
                }
                unexpanded = true
                out.append(c)
                i += 1
                continue
            }
            if c < 0x20 {
                if c == 0x09 || c == 0x0A || c == 0x0D { out.append(0x20) }  // attribute-value normalization
                i += 1
                continue
            }
            out.append(c)
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), unexpanded)
    }

    /// The scalar an entity body (between `&` and `;`) stands for: `.some(nil)` for a reference
    /// to a character XML forbids (dropped), nil when it is not a predefined or numeric reference.
    private static func reference(_ raw: UnsafeRawBufferPointer, from: Int, to: Int) -> UInt32?? {
        let body = UnsafeRawBufferPointer(rebasing: raw[from..<to])
        switch body.count {
        case 2 where body[0] == 0x6C && body[1] == 0x74: return 0x3C   // lt
        case 2 where body[0] == 0x67 && body[1] == 0x74: return 0x3E   // gt
        case 3 where body[0] == 0x61 && body[1] == 0x6D && body[2] == 0x70: return 0x26   // amp
        case 4 where Array(body) == Array("quot".utf8): return 0x22
        case 4 where Array(body) == Array("apos".utf8): return 0x27
        default: break
        }
        guard body.count >= 2, body[0] == 0x23 else { return nil }
        var v: UInt32 = 0
        if body[1] == 0x78 || body[1] == 0x58 {
            guard body.count >= 3 else { return nil }
            for c in body[2...] {
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                default: return nil
                }
                v = v &* 16 &+ d
                if v > 0x10FFFF { return .some(nil) }
            }
        } else {
            for c in body[1...] {
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v &* 10 &+ UInt32(c - 0x30)
                if v > 0x10FFFF { return .some(nil) }
            }
        }
        if v < 0x20, v != 0x09, v != 0x0A, v != 0x0D { return .some(nil) }
        if (0xD800...0xDFFF).contains(v) || v == 0xFFFE || v == 0xFFFF { return .some(nil) }
        return v
    }

    private static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | v >> 12 & 0x3F))
            out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        }
    }
}
