import Hummingbird

/// The per-request context: the session the guard found and the form it already read.
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var session: WebSessions.Session?
    var form: Form?

    init(source: Source) {
        coreContext = .init(source: source)
    }

    /// The request's form: the one the guard read, else read now.
    func form(of request: inout Request) async throws -> Form {
        if let form { return form }
        return Form(String(buffer: try await request.collectBody(upTo: 1 << 20)))
    }
}
