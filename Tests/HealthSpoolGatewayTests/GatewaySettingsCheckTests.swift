import Testing
@testable import HealthSpoolGateway

@Suite struct GatewaySettingsCheckTests {
    @Test func aHostWithASpaceIsAnInvalidHostNotAMissingOne() {
        #expect(throws: GatewayError.invalidURL("https://bad host/x", reason: "invalid host 'bad host': a host name has only letters, digits, '-' and '.' (no spaces)")) {
            try validateGatewayURL("https://bad host/x")
        }
    }

    @Test(arguments: ["https://h:0/x", "https://h:65536/x", "https://h:abc/x", "https://[::1]:70000/"])
    func portsOutsideTheRangeAreRefused(url: String) {
        #expect(throws: GatewayError.self) { try validateGatewayURL(url) }
    }

    @Test(arguments: ["https://h:1/x", "https://gateway.example:8443/ingest", "https://[::1]:443/", "https://10.0.0.5/"])
    func goodURLsPass(url: String) throws { try validateGatewayURL(url) }

    @Test func aPEMWithoutCertificatesCountsNone() {
        let key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
        #expect(GatewaySettingsCheck.certificateCount(inPEM: Array(key.utf8)) == 0)
        #expect(GatewaySettingsCheck.certificateCount(inPEM: Array("not pem".utf8)) == 0)
        let broken = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n"
        #expect(GatewaySettingsCheck.certificateCount(inPEM: Array(broken.utf8)) == 0)
        let der = [UInt8](repeating: 0x30, count: 40)
        let good = "-----BEGIN CERTIFICATE-----\n\(Base64Probe.encode(der))\n-----END CERTIFICATE-----\n"
        #expect(GatewaySettingsCheck.certificateCount(inPEM: Array((good + good).utf8)) == 2)
    }

    @Test func pinsMustBeSHA256OfThirtyTwoBytes() throws {
        let ok = "sha256//" + Base64Probe.encode([UInt8](repeating: 7, count: 32))
        try GatewaySettingsCheck.checkPin(ok)
        try GatewaySettingsCheck.checkPin(ok + ";" + ok)
        for bad in ["abc", "sha256//abc", "sha1//" + Base64Probe.encode([UInt8](repeating: 7, count: 20)), ok + ";"] {
            #expect(throws: GatewayError.invalidPin(bad)) { try GatewaySettingsCheck.checkPin(bad) }
        }
    }

    /// Issue 14: a CR/LF in a secret became an extra request header.
    @Test func aSecretWithAControlCharacterIsNotPutInAHeader() {
        let e = GatewayEndpoint(url: "https://h/x", auth: .bearer, secret: "tok\r\nX-Injected: 1")
        #expect(throws: GatewayError.self) { try e.headers() }
    }
}

import HealthSpoolCore
enum Base64Probe { static func encode(_ b: [UInt8]) -> String { Base64.encode(b) } }
