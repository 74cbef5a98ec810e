/// A transport that times each request of another one and reports the duration, in seconds,
/// whether the gateway answered or the request failed (the request-duration histogram).
public struct TimedTransport: GatewayTransport {
    let inner: any GatewayTransport
    let report: @Sendable (Double) -> Void

    /// Times `inner`'s requests; `report` is called on the requesting thread after each one.
    public init(_ inner: any GatewayTransport, report: @escaping @Sendable (Double) -> Void) {
        self.inner = inner
        self.report = report
    }

    public func post(url: String, body: UnsafeRawBufferPointer, headers: [String]) throws(GatewayError) -> HTTPResponse {
        let start = ContinuousClock.now
        defer {
            let elapsed = (ContinuousClock.now - start).components
            report(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
        return try inner.post(url: url, body: body, headers: headers)
    }
}

extension GatewayClient {
    /// A client over libcurl whose requests' durations go to `report`.
    public convenience init(endpoint: GatewayEndpoint, timing report: @escaping @Sendable (Double) -> Void) throws(GatewayError) {
        try self.init(endpoint: endpoint, transport: TimedTransport(try HTTPSClient(options: endpoint.tls), report: report))
    }
}
