import HealthSpoolCore

/// `healthspool gateway test`: one request that sends no sample, read into one sentence a
/// user can act on.
public enum GatewayProbe {
    public struct Verdict: Sendable {
        public var ok: Bool
        public var message: String
    }

    /// Probes the gateway: an empty batch (json), or an empty record list (confluent-v2/v3).
    public static func run(endpoint: GatewayEndpoint, envelope: BatchEnvelope, now: Timestamp) -> Verdict {
        do {
            let http = try HTTPSClient(options: endpoint.tls)
            var body = BatchEncoder.encode([], format: endpoint.format, envelope: envelope, now: now)
            if endpoint.format == .confluentV3 { body = [] }
            if endpoint.gzip { body = gzipCompress(body) }
            let r = try http.post(url: endpoint.requestURL, body: body, headers: try endpoint.headers())
            switch r.status {
            case 200..<300: return Verdict(ok: true, message: "ok: \(endpoint.requestURL) answered HTTP \(r.status) over TLS; credentials accepted")
            case 401, 403: return Verdict(ok: false, message: "the gateway refused the credentials (HTTP \(r.status)): check gateway.auth and the credentials file")
            case 404: return Verdict(ok: false, message: "HTTP 404 at \(endpoint.requestURL): the path or topic '\(endpoint.topic)' does not exist on the gateway")
            default:
                let detail = ResponseClassifier.shortText(r)
                return Verdict(ok: r.status < 500 && r.status != 429 && r.status != 408 && r.status / 100 == 4 && (r.status == 400 || r.status == 422),
                               message: "the gateway is reachable over TLS and answered HTTP \(r.status)\(detail.isEmpty ? "" : ": " + detail)")
            }
        } catch let e as GatewayError {
            return Verdict(ok: false, message: explain(e))
        } catch {
            return Verdict(ok: false, message: "\(error)")
        }
    }

    /// One sentence for a transport or configuration failure.
    static func explain(_ e: GatewayError) -> String {
        guard case let .transport(code, message, url) = e else { return e.description }
        switch code {
        case 6: return "cannot resolve the host of \(url): check the URL"
        case 7: return "nothing accepts connections at \(url): is the gateway running and the port right?"
        case 28: return "\(url) did not answer in time: check the network or raise gateway.connect_timeout"
        case 60, 77: return "the gateway's certificate is not trusted (\(message)): pass its CA with --ca-file"
        case 90: return "the gateway's public key does not match gateway.pin: the server changed keys or the pin is wrong"
        case 35, 56: return "TLS handshake with \(url) failed (\(message)): does the gateway speak TLS 1.2+ and accept the client certificate?"
        default: return e.description
        }
    }
}
