import Hummingbird

/// The per-request context: the connection it came on, the session the guard found and the form
/// it already read.
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var session: WebSessions.Session?
    var form: Form?
    /// The connection the request came on (`WebPeers` knows whose it is).
    let connection: ObjectIdentifier

    init(source: Source) {
        coreContext = .init(source: source)
        connection = ObjectIdentifier(source.channel)
    }

    /// The request's form: the one the guard read, else read now.
    func form(of request: inout Request) async throws -> Form {
        if let form { return form }
        return Form(String(buffer: try await request.collectBody(upTo: 1 << 20)))
    }
}
