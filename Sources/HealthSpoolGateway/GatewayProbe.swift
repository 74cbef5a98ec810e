import HealthSpoolCore

/// `healthspool gateway test`: reachability, TLS, authentication and the topic, without sending a
/// sample; every failure read into one sentence a user can act on.
public enum GatewayProbe {
    /// The probe's answer.
    public struct Verdict: Sendable {
        public var ok: Bool
        public var message: String
    }

    /// Probes the gateway. confluent-v2/v3: looks the topic up with a GET (v3: and the cluster
    /// when the topic is not found). json: POSTs an empty batch.
    public static func run(endpoint: GatewayEndpoint, envelope: BatchEnvelope, now: Timestamp) -> Verdict {
        do {
            let http = try HTTPSClient(options: endpoint.tls)
            if let topicURL = endpoint.topicURL {
                let r = try http.get(url: topicURL, headers: try endpoint.requestHeaders())
                return topicVerdict(r, endpoint: endpoint, http: http)
            }
            var body = BatchEncoder.encode([], format: endpoint.format, envelope: envelope, now: now)
            if endpoint.gzip { body = gzipCompress(body) }
            let r = try http.post(url: endpoint.requestURL, body: body, headers: try endpoint.headers())
            switch r.status {
            case 200..<300:
                return Verdict(ok: true, message: "ok: \(endpoint.requestURL) answered HTTP \(r.status) over TLS; credentials accepted")
            case 400, 422:
                return Verdict(ok: true, message: "ok: \(endpoint.requestURL) is reachable over TLS and answered an empty batch with HTTP \(r.status)\(detail(r))")
            default:
                return Verdict(ok: false, message: common(r, url: endpoint.requestURL, endpoint: endpoint))
            }
        } catch {
            return Verdict(ok: false, message: error.description)
        }
    }

    static func topicVerdict(_ r: HTTPResponse, endpoint: GatewayEndpoint, http: HTTPSClient) -> Verdict {
        let url = endpoint.topicURL ?? endpoint.url
        switch r.status {
        case 200..<300:
            return Verdict(ok: true, message: "ok: reached \(endpoint.baseURL) over TLS, credentials accepted, topic '\(endpoint.topic)' exists")
        case 404 where endpoint.format.wire == .confluentV3:
            let clusterURL = endpoint.baseURL + "/v3/clusters/" + endpoint.cluster
            if let c = try? http.get(url: clusterURL, headers: (try? endpoint.requestHeaders()) ?? []), c.status == 404 {
                let known = (try? http.get(url: endpoint.baseURL + "/v3/clusters", headers: (try? endpoint.requestHeaders()) ?? []))
                    .flatMap { try? JSONParser.parse($0.body) }?["data"]?.arrayValue?.compactMap { $0["cluster_id"]?.stringValue } ?? []
                let hint = known.isEmpty ? "" : " (the gateway knows: \(known.joined(separator: ", ")))"
                return Verdict(ok: false, message: "the gateway has no Kafka cluster '\(endpoint.cluster)'\(hint): set the right id with 'healthspool gateway set URL --cluster ID'")
            }
            return Verdict(ok: false, message: "topic '\(endpoint.topic)' does not exist in cluster '\(endpoint.cluster)': create it, or set the right one with 'healthspool gateway set URL --topic NAME'")
        case 404:
            return Verdict(ok: false, message: "topic '\(endpoint.topic)' does not exist on the gateway (\(url) answered 404): create it, or set the right one with 'healthspool gateway set URL --topic NAME'")
        default:
            return Verdict(ok: false, message: common(r, url: url, endpoint: endpoint))
        }
    }

    /// The sentences shared by every format.
    static func common(_ r: HTTPResponse, url: String, endpoint: GatewayEndpoint) -> String {
        switch r.status {
        case 401, 403:
            let how = endpoint.auth == .none
                ? "it wants credentials: set --auth api-key|basic|bearer and --credentials-file FILE (mode 0600)"
                : "check gateway.auth (\(endpoint.auth.rawValue)) and the secret in the credentials file"
            return "the gateway refused the credentials (HTTP \(r.status)): \(how)"
        case 404:
            return "\(url) answered 404: the URL's path is wrong for gateway.format \(endpoint.format.rawValue)"
        case 408, 429, 500...599:
            return "the gateway is reachable over TLS but cannot take data now (HTTP \(r.status)\(detail(r))); samples stay queued and are retried"
        default:
            return "the gateway is reachable over TLS but answered HTTP \(r.status)\(detail(r)): check the URL and gateway.format"
        }
    }

    static func detail(_ r: HTTPResponse) -> String {
        let text = (try? JSONParser.parse(r.body))?["message"]?.stringValue ?? ResponseClassifier.shortText(r)
        return text.isEmpty ? "" : ": " + text
    }
}
