import HealthSpoolCore

/// Why a delivery failed, and whether trying again can help.
public enum GatewayError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The URL is plain http:// (refused: health data travels over TLS only).
    case insecureURL(String)
    /// The URL cannot be used.
    case invalidURL(String, reason: String)
    /// The public-key pin is not `sha256//BASE64` (of 32 bytes).
    case invalidPin(String)
    /// A file the TLS setup needs is missing or unreadable.
    case unreadableFile(String, reason: String)
    /// The credentials cannot be used (missing, or a file readable by others).
    case credentials(String)
    /// libcurl failed before an HTTP answer: connect, TLS, timeout, reset.
    case transport(code: Int32, message: String, url: String)
    /// The gateway refused the credentials (401/403). Retried on the slow auth schedule
    /// (`retry.auth_seconds`), and at once when the credentials or the configuration change.
    case unauthorized(status: Int, message: String)
    /// The gateway answered with an error status.
    case http(status: Int, message: String, retryAfterMillis: Int64?)
    /// The gateway's answer could not be understood.
    case badResponse(String)

    /// Whether a retry with backoff may succeed.
    public var isRetryable: Bool {
        switch self {
        case .insecureURL, .invalidURL, .invalidPin, .unreadableFile, .credentials, .unauthorized, .badResponse: false
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
        case let .invalidPin(pin):
            "gateway.pin '\(pin)' is not a public-key pin: it takes sha256// and the base64 of the SHA-256 of the server's public key (32 bytes), several joined with ';' (openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"
        case let .unreadableFile(path, reason):
            "cannot read \(path): \(reason)"
        case let .credentials(reason):
            "gateway credentials: \(reason)"
        case let .transport(code, message, url):
            Self.explainTransport(code: code, message: message, url: url)
        case let .unauthorized(status, message):
            "gateway refused the credentials (HTTP \(status)\(message.isEmpty ? "" : ": " + message)); check gateway.auth and the secret in the credentials file — retried after 1, 5 and 15 minutes, then every 15, and at once when the credentials file or the configuration changes"
        case let .http(status, message, _):
            "gateway answered HTTP \(status)\(message.isEmpty ? "" : ": " + message)"
        case let .badResponse(why):
            "gateway answer not understood: \(why)"
        }
    }
}

extension GatewayError {
    /// One actionable sentence for a libcurl failure.
    static func explainTransport(code: Int32, message: String, url: String) -> String {
        let detail = " (\(message); libcurl \(code))"
        switch code {
        case 6: return "cannot resolve the host of \(url): check the URL" + detail
        case 7: return "nothing accepts connections at \(url): is the gateway running and the port right?" + detail
        case 28: return "\(url) did not answer in time: the gateway is slow or unreachable; it is retried (raise gateway.timeout or gateway.connect_timeout if it is just slow)" + detail
        case 35: return "the TLS handshake with \(url) failed: does the gateway speak TLS 1.2 or later, and does it want a client certificate (gateway.client_cert)?" + detail
        case 52, 55, 56: return "the connection to \(url) was dropped before the gateway answered; it is retried" + detail
        case 58: return "the client certificate or key cannot be used: check gateway.client_cert and gateway.client_key" + detail
        case 60, 77: return "the gateway's certificate is not trusted: pass its CA with --ca-file, or check the host name in the URL" + detail
        case 83: return "the gateway's certificate was issued for another host or is not acceptable: check the URL" + detail
        case 90: return "the gateway's public key does not match gateway.pin: the server changed its key or the pin is wrong; not retrying until the configuration changes" + detail
        default: return "cannot reach \(url)" + detail
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
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty else { throw .invalidURL(url, reason: "it has no host") }
    if authority.contains("@") {
        throw .invalidURL(url.replacingUserInfo(), reason: "credentials do not go in the URL (it is stored in the config file and shown in status); put the secret in a 0600 file and pass --auth and --credentials-file")
    }
    var host = Substring(authority), port: Substring?
    if authority.hasPrefix("[") {
        guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(url, reason: "invalid host '\(authority)': an IPv6 address needs its closing ']'") }
        host = authority[...close]
        let after = authority[authority.index(after: close)...]
        if !after.isEmpty {
            guard after.hasPrefix(":") else { throw .invalidURL(url, reason: "invalid host '\(authority)'") }
            port = after.dropFirst()
        }
        let inner = host.dropFirst().dropLast()
        guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
            throw .invalidURL(url, reason: "invalid host '\(host)': not an IPv6 address")
        }
    } else {
        if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .invalidURL(url, reason: "it has no host") }
        let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }
        guard allowed, !host.hasPrefix("."), !host.hasPrefix("-"), !host.contains("..") else {
            throw .invalidURL(url, reason: "invalid host '\(host)': a host name has only letters, digits, '-' and '.' (no spaces)")
        }
    }
    if let port {
        guard let n = Int(port), (1...65_535).contains(n), port.allSatisfy(\.isNumber) else {
            throw .invalidURL(url, reason: "invalid port '\(port)': a port is a number from 1 to 65535")
        }
    }
}

extension String {
    /// The URL with any `user:password@` replaced, for error messages.
    func replacingUserInfo() -> String {
        let chars = Array(self)
        guard let colon = chars.firstIndex(of: ":"), colon + 2 < chars.count, chars[colon + 1] == "/", chars[colon + 2] == "/" else { return self }
        let hostStart = colon + 3
        let hostEnd = chars[hostStart...].firstIndex { $0 == "/" || $0 == "?" } ?? chars.count
        guard let at = chars[hostStart..<hostEnd].lastIndex(of: "@") else { return self }
        return String(chars[..<hostStart]) + "***" + String(chars[at...])
    }
}
