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
        return Base64.decode(bytes[start.end..<stop.start], ignoringWhitespace: true).flatMap { $0.isEmpty ? nil : $0 }
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
}
