import HealthSpoolCore
import Testing
@testable import HealthSpoolLinux

/// The shapes of the Secret Service calls (org.freedesktop.Secret.*), checked without a bus; the
/// calls themselves are tested on a real gnome-keyring-daemon (tests/integration/test_keyring.py).
@Suite struct SecretServiceMessageTests {
    @Test func aSecretIsTheStructTheSpecNames() {
        let secret = BusValue.structure([.objectPath("/org/freedesktop/secrets/session/s1"), .bytes([]), .bytes(Array("k".utf8)), .string("text/plain")])
        #expect(secret.signature == "(oayays)")
    }

    @Test func createItemTakesPropertiesASecretAndReplace() {
        let properties = BusValue.variantDictionary([
            ("org.freedesktop.Secret.Item.Label", .string(SecretName.gateway.label)),
            ("org.freedesktop.Secret.Item.Attributes", .stringDictionary(SecretName.gateway.attributes)),
        ])
        let secret = BusValue.structure([.objectPath("/"), .bytes([]), .bytes([1]), .string("text/plain")])
        #expect([properties, secret, .boolean(true)].signature == "a{sv}(oayays)b")
        #expect(BusValue.stringDictionary(SecretName.web.attributes).signature == "a{ss}")
    }

    @Test func itemsAreNamedByApplicationAndSetting() {
        #expect(SecretName.allCases.map(\.rawValue) == ["gateway.secret", "web.secret", "ingest.token"])
        for name in SecretName.allCases {
            #expect(name.attributes.map(\.0) == ["application", "setting"])
            #expect(name.attributes[0].1 == "healthspool" && name.attributes[1].1 == name.rawValue)
        }
    }

    @Test func noBusMeansNoKeyringNotAnError() throws {
        // A session bus address whose socket does not exist: files, as on a server.
        let none = try SecretService.with(use: .auto, environment: ["XDG_RUNTIME_DIR": "/nonexistent-run"]) { _ throws(KeyringError) in true }
        #expect(none == nil)
        let off = try SecretService.with(use: .off, environment: [:]) { _ throws(KeyringError) in true }
        #expect(off == nil)
        #expect(Credentials.place(file: "/x/gw", environment: ["XDG_RUNTIME_DIR": "/nonexistent-run"], keyring: .auto) == .file("/x/gw"))
    }

    @Test func aBusAddressIsUnescaped() {
        #expect("/run/user/1000/a%20b".removingAddressEscapes == "/run/user/1000/a b")
    }
}
