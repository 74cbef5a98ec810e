/// How a delivery reaches the gateway: one POST, any HTTP status returned, transport failures
/// thrown. `HTTPSClient` (libcurl, on the calling thread) is the one used in production; tests
/// of the client's loop may pass their own.
public protocol GatewayTransport {
    /// POSTs the bytes `body` points at (read only during the call) with `headers` ("Name: value").
    func post(url: String, body: UnsafeRawBufferPointer, headers: [String]) throws(GatewayError) -> HTTPResponse
}

extension HTTPSClient: GatewayTransport {}
