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

    public init(url: String, format: GatewayFormat = .json, topic: String = "health-samples", cluster: String = "cluster",
                tls: TLSOptions = TLSOptions(), auth: GatewayAuth = .none, secret: String? = nil,
                apiKeyHeader: String = "X-API-Key", gzip: Bool = false) {
        self.url = url
        self.format = format
        self.topic = topic
        self.cluster = cluster
        self.tls = tls
        self.auth = auth
        self.secret = secret
        self.apiKeyHeader = apiKeyHeader
        self.gzip = gzip
    }

    /// The URL requests are POSTed to.
    public var requestURL: String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        switch format {
        case .json: return url
        case .confluentV2: return base + "/topics/" + topic
        case .confluentV3: return base + "/v3/clusters/" + cluster + "/topics/" + topic + "/records"
        }
    }

    /// Request headers, including authentication.
    public func headers() throws(GatewayError) -> [String] {
        var h = ["Content-Type: \(format.contentType)", "Accept: application/json", "User-Agent: healthspool/\(HealthSpoolVersion.current)"]
        if format == .confluentV2 { h[1] = "Accept: application/vnd.kafka.v2+json, application/json" }
        if gzip { h.append("Content-Encoding: gzip") }
        switch auth {
        case .none: break
        case .apiKey, .bearer, .basic:
            guard let secret, !secret.isEmpty else {
                throw .credentials("gateway.auth is \(auth.rawValue) but no secret was found; put it in a 0600 file named by gateway.credentials_file, or pass it as the systemd credential 'healthspool-gateway'")
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
