import Testing
@testable import HealthSpoolLinux

@Suite struct CredentialsTests {
    @Test func aTrailingNewlineIsStripped() throws {
        #expect(try Credentials.secret(from: Array("k-123\n".utf8), path: "/s") == "k-123")
        #expect(try Credentials.secret(from: Array("k-123\r\n".utf8), path: "/s") == "k-123")
    }

    /// Issue 14: CR/LF inside a secret reached the request as an extra header.
    @Test(arguments: ["k\r\nX-Injected: 1", "k\nX-Injected: 1\n", "k\u{0}x", "k\tx", "k\u{7F}"])
    func controlCharactersAreRefusedNamingTheFile(secret: String) {
        do {
            _ = try Credentials.secret(from: Array(secret.utf8), path: "/home/a/gateway.key")
            Issue.record("accepted \(secret.debugDescription)")
        } catch {
            #expect("\(error)".contains("/home/a/gateway.key") && "\(error)".contains("control character"))
        }
    }
}
