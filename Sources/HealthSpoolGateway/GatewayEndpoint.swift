import HealthSpoolCore

/// Everything needed to talk to one gateway.
public struct GatewayEndpoint: Sendable, Equatable {
    /// The configured URL: the REST proxy's base URL (confluent-v2/v3) or the POST URL (json).
    public var url: String
    public var format: GatewayFormat
    public var topic: String
    public var cluster: String
    public var tls: TLSOptions
    public var auth: GatewayAuth
    /// The secret for `auth` (API key, token, or `user:password`). Never logged.
    public var secret: String?
    public var apiKeyHeader: String
    public var gzip: Bool
    /// The largest request body sent (uncompressed); a larger batch goes in several requests.
    public var maxBodyBytes: Int

    public init(url: String, format: GatewayFormat = .json, topic: String = "health-samples", cluster: String = "cluster",
                tls: TLSOptions = TLSOptions(), auth: GatewayAuth = .none, secret: String? = nil,
                apiKeyHeader: String = "X-API-Key", gzip: Bool = false, maxBodyBytes: Int = 1 << 20) {
        self.url = url
        self.format = format
        self.topic = topic
        self.cluster = cluster
        self.tls = tls
        self.auth = auth
        self.secret = secret
        self.apiKeyHeader = apiKeyHeader
        self.gzip = gzip
        self.maxBodyBytes = maxBodyBytes
    }

    /// The URL requests are POSTed to.
    public var requestURL: String {
        let base = baseURL
        switch format.wire {
        case .json: return url
        case .confluentV2: return base + "/topics/" + topic
        case .confluentV3: return base + "/v3/clusters/" + cluster + "/topics/" + topic + "/records"
        }
    }

    /// The REST proxy's base URL, without a trailing slash.
    var baseURL: String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The topic's metadata: `GET /topics/{topic}` (v2) or `GET /v3/clusters/{c}/topics/{topic}`
    /// (v3); nil for json.
    public var topicURL: String? {
        switch format.wire {
        case .json: nil
        case .confluentV2: baseURL + "/topics/" + topic
        case .confluentV3: baseURL + "/v3/clusters/" + cluster + "/topics/" + topic
        }
    }

    /// Request headers for a POST of records, including authentication.
    public func headers() throws(GatewayError) -> [String] {
        var h = ["Content-Type: \(format.contentType)"] + (try requestHeaders())
        if gzip { h.append("Content-Encoding: gzip") }
        return h
    }

    /// Accept, User-Agent and authentication: the headers every request carries.
    public func requestHeaders() throws(GatewayError) -> [String] {
        var h = [format.wire == .confluentV2 ? "Accept: application/vnd.kafka.v2+json, application/json" : "Accept: application/json",
                 "User-Agent: healthspool/\(HealthSpoolVersion.current)"]
        switch auth {
        case .none: break
        case .apiKey, .bearer, .basic:
            guard let secret, !secret.isEmpty else {
                throw .credentials("gateway.auth is \(auth.rawValue) but no secret was found; put it in a 0600 file named by gateway.credentials_file, or pass it as the systemd credential 'healthspool-gateway'")
            }
            // A control character would end the header and start another one.
            guard !secret.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
                  !apiKeyHeader.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == ":" }) else {
                throw .credentials("the secret or gateway.api_key_header holds a control character; a secret is one line of printable text")
            }
            switch auth {
            case .apiKey: h.append("\(apiKeyHeader): \(secret)")
            case .bearer: h.append("Authorization: Bearer \(secret)")
            case .basic: h.append("Authorization: Basic \(Base64.encode(Array(secret.utf8)))")
            case .none: break
            }
        }
        return h
    }
}

extension GatewayEndpoint: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The endpoint for logs and errors: never the secret.
    public var description: String {
        "\(format.rawValue) \(requestURL) (auth \(auth.rawValue)\(secret == nil ? "" : ", secret redacted"))"
    }

    public var debugDescription: String { description }

    /// `dump` and the debugger see the same redacted text.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
