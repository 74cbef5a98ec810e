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
            if let der = Base64.decode(String(body).utf8), der.count > 16, der[0] == 0x30 { count += 1 }
            rest = rest[e.upperBound...]
        }
        return count
    }

    /// Checks a public-key pin: `sha256//` and the base64 of a 32-byte hash, several joined with `;`.
    public static func checkPin(_ pin: String) throws(GatewayError) {
        for part in pin.split(separator: ";", omittingEmptySubsequences: false) {
            let p = part.trimmingCharacters(in: " ")
            guard p.hasPrefix("sha256//"), let hash = Base64.decode(p.dropFirst(8).utf8), hash.count == 32 else {
                throw .invalidPin(pin)
            }
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
