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
/// per-record results, and narrows a rejected batch down to the offending records (the plan is
/// `DeliveryPlanner`'s; this type only carries the requests out).
public final class GatewayClient {
    public let endpoint: GatewayEndpoint
    private let transport: any GatewayTransport
    private let headers: [String]

    /// A client over libcurl (`HTTPSClient`) with the endpoint's TLS options.
    public convenience init(endpoint: GatewayEndpoint) throws(GatewayError) {
        try self.init(endpoint: endpoint, transport: try HTTPSClient(options: endpoint.tls))
    }

    /// A client over `transport`.
    public init(endpoint: GatewayEndpoint, transport: any GatewayTransport) throws(GatewayError) {
        try validateGatewayURL(endpoint.url)
        self.endpoint = endpoint
        self.headers = try endpoint.headers()
        self.transport = transport
    }

    /// Sends `batch` (one request, or more when narrowing a rejected batch).
    public func deliver(_ batch: EncodedBatch, envelope: BatchEnvelope, now: Timestamp) -> DeliveryOutcome {
        var plan = DeliveryPlanner(recordBytes: (0..<batch.count).map(batch.byteCount(of:)), maxBodyBytes: endpoint.maxBodyBytes)
        while let part = plan.next() {
            do {
                let response = try batch.withBody(part, format: endpoint.format, envelope: envelope, now: now) { body throws(GatewayError) in
                    if endpoint.gzip {
                        return try gzipCompress(body).withUnsafeBytes { raw in
                            Result { () throws(GatewayError) in try transport.post(url: endpoint.requestURL, body: raw, headers: headers) }
                        }.get()
                    }
                    return try transport.post(url: endpoint.requestURL, body: body, headers: headers)
                }
                plan.record(ResponseClassifier.classify(response, format: endpoint.format, count: part.count), for: part,
                            status: response.status, newConnections: response.newConnections,
                            retryAfterMillis: response.headers["retry-after"].flatMap { ResponseClassifier.parseRetryAfter($0, now: now) })
            } catch {
                plan.record(error.isRetryable ? .retry(error) : .stop(error), for: part)
            }
        }
        return plan.outcome
    }
}
