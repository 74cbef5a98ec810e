import Hummingbird

/// The per-request context: the connection it came on, the session the guard found and the form
/// it already read (`FormPosts` reads the body when it did not).
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
}
