import HealthSpoolCore

/// Why a delivery failed, and whether trying again can help.
public enum GatewayError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The URL is plain http:// (refused: health data travels over TLS only).
    case insecureURL(String)
    /// The URL cannot be used.
    case invalidURL(String, reason: String)
    /// A file the TLS setup needs is missing or unreadable.
    case unreadableFile(String, reason: String)
    /// The credentials cannot be used (missing, or a file readable by others).
    case credentials(String)
    /// libcurl failed before an HTTP answer: connect, TLS, timeout, reset.
    case transport(code: Int32, message: String, url: String)
    /// The gateway refused the credentials (401/403). Not retried until the configuration changes.
    case unauthorized(status: Int, message: String)
    /// The gateway answered with an error status.
    case http(status: Int, message: String, retryAfterMillis: Int64?)
    /// The gateway's answer could not be understood.
    case badResponse(String)

    /// Whether a retry with backoff may succeed.
    public var isRetryable: Bool {
        switch self {
        case .insecureURL, .invalidURL, .unreadableFile, .credentials, .unauthorized, .badResponse: false
        case let .transport(code, _, _):
            // 60 peer cert, 90 pin mismatch, 58/59 client cert/cipher: configuration, not weather.
            ![1, 3, 58, 59, 60, 77, 83, 90].contains(code)
        case let .http(status, _, _): status == 408 || status == 429 || status >= 500
        }
    }

    public var description: String {
        switch self {
        case let .insecureURL(url):
            "refusing plain http:// gateway \(url): health data is only sent over TLS; use an https:// URL (add --ca-file for a private CA)"
        case let .invalidURL(url, reason):
            "gateway URL '\(url)' cannot be used: \(reason)"
        case let .unreadableFile(path, reason):
            "cannot read \(path): \(reason)"
        case let .credentials(reason):
            "gateway credentials: \(reason)"
        case let .transport(code, message, url):
            "cannot reach \(url): \(message) (libcurl \(code))"
        case let .unauthorized(status, message):
            "gateway refused the credentials (HTTP \(status)\(message.isEmpty ? "" : ": " + message)); fix them with 'healthspool gateway set' — not retrying until the configuration changes"
        case let .http(status, message, _):
            "gateway answered HTTP \(status)\(message.isEmpty ? "" : ": " + message)"
        case let .badResponse(why):
            "gateway answer not understood: \(why)"
        }
    }
}

/// Checks a gateway URL: https:// only, with a host.
public func validateGatewayURL(_ url: String) throws(GatewayError) {
    let lower = url.lowercased()
    if lower.hasPrefix("http://") { throw .insecureURL(url) }
    guard lower.hasPrefix("https://") else {
        throw .invalidURL(url, reason: "it must start with https://")
    }
    let rest = url.dropFirst(8)
    let host = rest.prefix { $0 != "/" && $0 != "?" }
    guard !host.isEmpty, !host.contains(" ") else { throw .invalidURL(url, reason: "it has no host") }
}
