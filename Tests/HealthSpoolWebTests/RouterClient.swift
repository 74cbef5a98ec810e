import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

/// How a route test drives the application: `.router`, the one mode this target needs (the
/// router's responder called in the process, no socket, no HTTP client).
enum TestingSetup: Sendable {
    case router
}

/// What a route test sends requests through.
protocol TestClientProtocol: Sendable {
    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse
}

extension TestClientProtocol {
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: method, headers: headers, body: body)
    }
}

extension ApplicationProtocol {
    /// Runs `test` with a client that hands each request to this application's responder. The
    /// web fixture's application has no services and nothing to run before the server starts;
    /// an application that has either is refused rather than half-started.
    func test<Value>(_ setup: TestingSetup, _ test: (RouterClient<Responder>) async throws -> Value) async throws -> Value {
        precondition(services.isEmpty && processesRunBeforeServerStart.isEmpty,
                     "RouterClient drives a bare router: this application has services or start-up processes")
        return try await test(RouterClient(responder: try await responder, logger: logger))
    }
}

/// Sends a request to a router's responder as the server would: the request's head with
/// `Host: localhost` (scheme http) and the body's `Content-Length`, a fresh request context on a
/// channel of its own (no peer address), and the response's body collected whole. An error the
/// responder lets through is a 500, as the server answers it.
struct RouterClient<Responder: HTTPResponder>: TestClientProtocol
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let responder: Responder
    let logger: Logger

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
                              body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = Responder.Context(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        return TestResponse(head: response.head, body: collector.buffer, trailerHeaders: collector.trailers)
    }
}

/// A response's body and trailers as the responder wrote them.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()
    var trailers: HTTPFields?

    func write(_ buffer: ByteBuffer) async throws {
        self.buffer.writeImmutableBuffer(buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {
        trailers = trailingHeaders
    }
}
