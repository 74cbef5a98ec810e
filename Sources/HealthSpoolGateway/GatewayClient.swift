import HealthSpoolCore

/// What happened to each sample of a delivery.
public struct DeliveryOutcome: Sendable {
    /// How many samples the gateway accepted (the rest of the batch is in `retry` or `rejected`).
    public var accepted = 0
    /// Samples to send again later, by their place in the batch.
    public var retry: [Int] = []
    /// Samples the gateway rejected as bad, by their place in the batch, with the reason: park them.
    public var rejected: [(index: Int, reason: String)] = []
    /// The first error that kept samples from being accepted.
    public var error: GatewayError?
    /// Set when the credentials or configuration were refused: stop until they change.
    public var stopped = false
    /// Set after a whole request failed in a way that may pass later (5xx, 429, timeout): the
    /// rest of a batch being narrowed down is not sent now.
    var halted = false
    public var retryAfterMillis: Int64?
    public var lastStatus: Int?
    public var requests = 0
    public var newConnections = 0

    public init() {}

    mutating func note(_ e: GatewayError) { if error == nil { error = e } }
}

/// Delivers batches to the gateway: encodes them, POSTs over one keep-alive connection, reads
/// per-record results, and narrows a rejected batch down to the offending records.
public final class GatewayClient {
    public let endpoint: GatewayEndpoint
    private let http: HTTPSClient
    private let headers: [String]

    public init(endpoint: GatewayEndpoint) throws(GatewayError) {
        try validateGatewayURL(endpoint.url)
        self.endpoint = endpoint
        self.headers = try endpoint.headers()
        self.http = try HTTPSClient(options: endpoint.tls)
    }

    /// Sends `batch` (one request, or more when narrowing a rejected batch).
    public func deliver(_ batch: EncodedBatch, envelope: BatchEnvelope, now: Timestamp) -> DeliveryOutcome {
        var outcome = DeliveryOutcome()
        send(batch, 0..<batch.count, envelope: envelope, now: now, into: &outcome)
        return outcome
    }

    /// Sends samples `part` of `batch`.
    private func send(_ batch: EncodedBatch, _ part: Range<Int>, envelope: BatchEnvelope, now: Timestamp, into o: inout DeliveryOutcome) {
        guard !part.isEmpty else { return }
        if o.stopped || o.halted { o.retry.append(contentsOf: part); return }
        let verdict: BatchVerdict
        do {
            let response = try batch.withBody(part, format: endpoint.format, envelope: envelope, now: now) { body throws(GatewayError) in
                if endpoint.gzip { return try http.post(url: endpoint.requestURL, body: gzipCompress(body), headers: headers) }
                return try http.post(url: endpoint.requestURL, body: body, headers: headers)
            }
            o.requests += 1
            o.newConnections += response.newConnections
            o.lastStatus = response.status
            if let ra = response.headers["retry-after"].flatMap({ ResponseClassifier.parseRetryAfter($0, now: now) }) {
                o.retryAfterMillis = max(o.retryAfterMillis ?? 0, ra)
            }
            verdict = ResponseClassifier.classify(response, format: endpoint.format, count: part.count)
        } catch {
            o.requests += 1
            verdict = error.isRetryable ? .retry(error) : .stop(error)
        }
        switch verdict {
        case let .perRecord(verdicts):
            for (i, v) in zip(part, verdicts) {
                switch v {
                case .accepted: o.accepted += 1
                case let .retry(msg): o.retry.append(i); o.note(.http(status: o.lastStatus ?? 0, message: msg, retryAfterMillis: nil))
                case let .rejected(msg): o.rejected.append((i, msg))
                case let .unauthorized(msg):
                    o.retry.append(i); o.stopped = true
                    o.note(.unauthorized(status: o.lastStatus ?? 0, message: msg))
                case let .misconfigured(msg):
                    o.retry.append(i); o.stopped = true
                    o.note(.http(status: o.lastStatus ?? 0, message: "\(msg): check gateway.topic and gateway.cluster ('healthspool gateway test')", retryAfterMillis: nil))
                }
            }
        case let .retry(e):
            o.retry.append(contentsOf: part); o.note(e); o.halted = true
        case let .stop(e):
            o.retry.append(contentsOf: part); o.stopped = true; o.note(e)
        case let .rejected(e):
            if part.count == 1 {
                o.rejected.append((part.lowerBound, e.description))
            } else {
                let mid = part.lowerBound + part.count / 2
                send(batch, part.lowerBound..<mid, envelope: envelope, now: now, into: &o)
                send(batch, mid..<part.upperBound, envelope: envelope, now: now, into: &o)
            }
        }
    }
}
