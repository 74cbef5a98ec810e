import Hummingbird

/// Takes the message out of every redirect's address and holds it for the session
/// (`SessionMemory.address`): routes write `Page.redirect(path, ok: "Saved: …")`, the browser is
/// sent to `path?notice=<id>`, and the page it lands on shows the held message. Runs after the
/// request guard, so it knows the request's session.
struct NoticeRedirects: RouterMiddleware {
    typealias Context = WebContext
    let memory: SessionMemory

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if (300..<400).contains(response.status.code), let location = response.headers[.location] {
            response.headers[.location] = memory.address(location, session: context.session?.id, now: DaemonClock.now().millis)
        }
        return response
    }
}
