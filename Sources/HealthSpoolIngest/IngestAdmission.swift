/// What the ingest endpoint does with a request, decided from its head alone, before a byte of
/// the body is read: refuse it with a status, or read a body of the given length.
public enum IngestAdmission: Equatable, Sendable {
    case refuse(status: Int, reason: String)
    case readBody(length: Int)

    /// The one path requests are POSTed to.
    public static let path = "/ingest"
    /// The header that may carry the token instead of `Authorization: Bearer`.
    public static let apiKeyHeader = "x-api-key"

    /// Decides for `head`, with the endpoint's `token` and body limit. The order matters: an
    /// unauthenticated client learns nothing but 401 (and 404/405 for a wrong path or method).
    public static func decide(_ head: RequestHead, token: [UInt8], maxBodyBytes: Int) -> IngestAdmission {
        guard head.path == path else { return .refuse(status: 404, reason: "no such path; POST to \(path)") }
        guard head.method == "POST" else { return .refuse(status: 405, reason: "only POST is accepted at \(path)") }
        guard isAuthorized(head, token: token) else {
            return .refuse(status: 401, reason: "a valid token is needed: Authorization: Bearer TOKEN or X-API-Key: TOKEN (healthspool ingest shows where the token is)")
        }
        if !head.values("transfer-encoding").isEmpty {
            if !head.values("content-length").isEmpty {
                return .refuse(status: 400, reason: "both Transfer-Encoding and Content-Length are given")
            }
            return .refuse(status: 411, reason: "chunked transfer encoding is not accepted; send the body with a Content-Length")
        }
        let length: Int?
        do { length = try head.contentLength() } catch { return .refuse(status: 400, reason: error.description) }
        guard let length else { return .refuse(status: 411, reason: "a Content-Length is needed") }
        guard length <= maxBodyBytes else {
            return .refuse(status: 413, reason: "the body of \(length) bytes is larger than ingest.max_body_bytes (\(maxBodyBytes))")
        }
        guard length > 0 else { return .refuse(status: 400, reason: "the body is empty") }
        if let expect = head.values("expect").first, expect.lowercased() != "100-continue" {
            return .refuse(status: 417, reason: "only Expect: 100-continue is understood")
        }
        return .readBody(length: length)
    }

    /// Whether `Authorization: Bearer` or `X-API-Key` carries the token (compared in constant
    /// time). Several credentials, one of them wrong, are refused.
    static func isAuthorized(_ head: RequestHead, token: [UInt8]) -> Bool {
        var offered: [String] = head.values(apiKeyHeader)
        for value in head.values("authorization") {
            let parts = value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
            offered.append(String(parts[1]).trimmingBlanks)
        }
        guard !offered.isEmpty, !token.isEmpty else { return false }
        return offered.allSatisfy { constantTimeEqual(Array($0.utf8), token) }
    }

    /// Compares two byte strings in time that depends on their lengths only, not on where
    /// they first differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        if a.count != b.count { difference |= 1 }
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0, y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
