import Hummingbird
import NIOCore

/// A response as a route test reads it: the head (status, headers), the whole body, the trailers.
struct TestResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer
    let trailerHeaders: HTTPFields?

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}
