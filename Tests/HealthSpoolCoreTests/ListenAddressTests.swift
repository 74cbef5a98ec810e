import Testing
@testable import HealthSpoolCore

@Suite struct ListenAddressTests {
    @Test func ipv4AndBracketedIPv6WithAPortAreRead() throws {
        let v4 = try #require(ListenAddress("192.168.1.20:8443"))
        #expect(v4.host == "192.168.1.20" && v4.port == 8443 && !v4.isIPv6)
        let v6 = try #require(ListenAddress("[fd00::20]:8443"))
        #expect(v6.host == "fd00::20" && v6.port == 8443 && v6.isIPv6 && v6.description == "[fd00::20]:8443")
    }

    @Test(arguments: ["192.168.1.20", "myhost:8443", "192.168.1.20:0", "192.168.1.20:70000", "fd00::20:8443", "[fd00::20]8443",
                      "1.2.3:80", "1.2.3.4.5:80", "[]:80", "256.1.1.1:80", "1.2.3.4:+80", "+1.2.3.4:80"])
    func otherFormsAreRefused(_ text: String) {
        #expect(ListenAddress(text) == nil)
    }

    @Test func theSettingRefusesAHostNameWithAnExample() throws {
        var s = Settings()
        #expect(throws: SettingsError.self) { try SettingsReader.apply("ingest.listen", "myhost:8443", to: &s, origin: "test") }
        try SettingsReader.apply("ingest.listen", "127.0.0.1:8443", to: &s, origin: "test")
        #expect(s.ingestListen == ListenAddress("127.0.0.1:8443"))
    }
}
