/// The SHA-256 fingerprint of a certificate: the digest of its DER bytes, as a phone or
/// `openssl x509 -fingerprint -sha256` shows it (`AB:CD:…`), for pinning.
public enum CertificateFingerprint {
    /// The fingerprint of the first certificate in PEM text; nil when there is none.
    public static func ofPEM(_ text: String) -> String? {
        guard let der = firstCertificateDER(text) else { return nil }
        return SHA256.hash(der).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// The DER bytes of the first `CERTIFICATE` block.
    static func firstCertificateDER(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard let start = find(Array("-----BEGIN CERTIFICATE-----".utf8), in: bytes, from: 0),
              let stop = find(Array("-----END CERTIFICATE-----".utf8), in: bytes, from: start.end) else { return nil }
        return decodeBase64(bytes[start.end..<stop.start])
    }

    /// Where `needle` first occurs in `bytes` at or after `from`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> (start: Int, end: Int)? {
        guard bytes.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= bytes.count {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return (i, i + needle.count) }
            i += 1
        }
        return nil
    }

    /// Decodes base64, skipping white space; nil on any other character.
    static func decodeBase64(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0, bits = 0
        for c in text {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
            accumulator = (accumulator << 6) | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
            }
        }
        return out.isEmpty ? nil : out
    }
}
