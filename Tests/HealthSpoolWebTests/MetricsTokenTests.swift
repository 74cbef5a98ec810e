import Testing
@testable import HealthSpoolWeb

/// The bearer token a scrape of /metrics must send.
@Suite struct MetricsTokenTests {
    let token = String(repeating: "ab", count: 32)

    @Test func theTokenAsABearerIsAccepted() {
        #expect(MetricsToken.accepts("Bearer \(token)", token: token))
        #expect(MetricsToken.accepts("bearer \(token) ", token: token))   // the scheme is case-insensitive (RFC 7235)
    }

    @Test(arguments: [nil, "", "Bearer", "Bearer ", "Basic YWxpY2U6c2VjcmV0", "Token abababab"])
    func aMissingOrOtherSchemeIsRefused(header: String?) {
        #expect(!MetricsToken.accepts(header, token: token))
    }

    @Test func aWrongShorterOrLongerTokenIsRefused() {
        #expect(!MetricsToken.accepts("Bearer " + String(repeating: "ab", count: 31) + "ac", token: token))
        #expect(!MetricsToken.accepts("Bearer " + token.dropLast(), token: token))
        #expect(!MetricsToken.accepts("Bearer " + token + "00", token: token))
    }
}
