import HealthSpoolCore

/// Checks of what `healthspool gateway set` saves, before it is saved: the CA file holds
/// certificates, the pin has the form libcurl takes. (The URL: `validateGatewayURL`.)
public enum GatewaySettingsCheck {
    /// How many PEM certificates (`-----BEGIN CERTIFICATE-----` blocks whose body is base64 of a
    /// DER sequence) `pem` holds.
    public static func certificateCount(inPEM pem: [UInt8]) -> Int {
        let text = String(decoding: pem, as: UTF8.self)
        var count = 0
        var rest = Substring(text)
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        while let b = rest.firstRange(of: begin) {
            guard let e = rest[b.upperBound...].firstRange(of: end) else { break }
            let body = rest[b.upperBound..<e.lowerBound].filter { !$0.isWhitespace }
            if let der = base64Decode(String(body)), der.count > 16, der[0] == 0x30 { count += 1 }
            rest = rest[e.upperBound...]
        }
        return count
    }

    /// Checks a public-key pin: `sha256//` and the base64 of a 32-byte hash, several joined with `;`.
    public static func checkPin(_ pin: String) throws(GatewayError) {
        for part in pin.split(separator: ";", omittingEmptySubsequences: false) {
            let p = part.trimmingCharacters(in: " ")
            guard p.hasPrefix("sha256//"), let hash = base64Decode(String(p.dropFirst(8))), hash.count == 32 else {
                throw .invalidPin(pin)
            }
        }
    }

    /// Standard base64 (padding optional); nil when `text` is not base64.
    static func base64Decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        var padding = 0
        for c in text.utf8 {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): padding += 1; continue
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

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
