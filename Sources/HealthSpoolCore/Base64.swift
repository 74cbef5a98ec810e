/// Standard base64 (RFC 4648) without line breaks.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes bytes.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let b = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((b.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < b.count {
            let n = UInt32(b[i]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2])
            for s in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(s) & 63)]) }
            i += 3
        }
        let rest = b.count - i
        if rest > 0 {
            let n = UInt32(b[i]) << 16 | (rest == 2 ? UInt32(b[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : 0x3D)
            out.append(0x3D)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes standard base64 (padding optional; nothing after it); nil when `bytes` are not
    /// base64. With `ignoringWhitespace`, spaces, tabs and line breaks are skipped (a PEM body).
    public static func decode<C: Collection>(_ bytes: C, ignoringWhitespace: Bool = false) -> [UInt8]? where C.Element == UInt8 {
        var out: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        var padding = 0
        for c in bytes {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): padding += 1; continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t") where ignoringWhitespace: continue
            default: return nil
            }
            if padding > 0 { return nil }
            buffer = buffer << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        return padding <= 2 ? out : nil
    }
}
