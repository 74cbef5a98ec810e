import Testing
@testable import HealthSpoolCore

@Suite struct CertificateFingerprintTests {
    @Test func theFingerprintIsTheSHA256OfTheDERBytesInColonHex() throws {
        // Any bytes will do: the fingerprint is over what the PEM block encodes.
        let der: [UInt8] = Array("not really a certificate, but DER bytes all the same".utf8)
        let pem = "junk before\n-----BEGIN CERTIFICATE-----\n" + Base64.encode(der) + "\n-----END CERTIFICATE-----\n"
        let expected = SHA256.hash(der).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: ":")
        #expect(CertificateFingerprint.ofPEM(pem) == expected)
    }

    @Test func noCertificateBlockGivesNil() {
        #expect(CertificateFingerprint.ofPEM("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") == nil)
        #expect(CertificateFingerprint.ofPEM("") == nil)
    }
}
