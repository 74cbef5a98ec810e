import HealthSpoolCore
import Hummingbird

/// The checks every request passes before a page sees it, in this order:
/// 1. `Host` must be the user's loopback address and port the server listens on: anything else
///    is a DNS-rebinding attempt and gets 403.
/// 2. `/metrics` (a Prometheus scrape) needs the metrics token as `Authorization: Bearer …`,
///    no cookie: else 401 with `WWW-Authenticate: Bearer`. It is the one path another user's
///    program may ask for.
/// 3. Every other path is the owner's alone: a connection from another user's program gets 403
///    whatever cookie it carries. (A browser sends the session cookie to every port of the
///    address, so another user who serves a page on the user's address could read it; it is of
///    no use to them from their own connections.)
/// 4. Except for `/login` and the style sheets and scripts, a live session cookie: any of the
///    `hs_session` values sent, whatever other cookies came (`SessionCookies`); else 401 with a
///    page that says why (`SignedOut`).
/// 5. A state-changing request (not GET/HEAD) needs an `Origin` equal to `http://<Host>` and the
///    session's CSRF token (`X-CSRF-Token` header or a `csrf` form field): else 403.
/// Every answer carries a strict Content-Security-Policy and no-store caching, a "No such page"
/// and any other error page included.
struct RequestGuard: RouterMiddleware {
    typealias Context = WebContext
    let address: String
    let port: Int
    let sessions: WebSessions
    /// The web secret: it signs the session cookies (`WebSessions.signed`).
    let secret: [UInt8]
    /// The token `/metrics` needs; nil: every scrape is refused.
    let metricsToken: String?
    /// Whose each connection is; nil where there are no connections of users to tell apart (the
    /// route tests' in-process client).
    let peers: WebPeers?

    /// Paths that need no session: the login link and the embedded style sheets and scripts.
    static let open: Set<String> = WebAssets.paths.union(["/login"])

    func handle(_ input: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var request = input
        var context = context
        let host = request.head.authority ?? ""
        guard allowedHosts.contains(host.lowercased()) else {
            return Self.secured(Page.plain(status: .forbidden, title: "Refused",
                                           text: "This address is not the health journal's. Open Health journal from your applications menu."))
        }
        if request.uri.path == MetricsRoute.path {
            guard let token = metricsToken, MetricsToken.accepts(request.headers[.authorization], token: token) else {
                return Self.secured(MetricsRoute.unauthorized(presented: request.headers[.authorization] != nil))
            }
        } else if let peers, peers.user(of: context.connection) != peers.owner {
            return Self.secured(Page.plain(status: .forbidden, title: "Refused",
                                           text: "This health journal belongs to another user of this computer."))
        } else if !Self.open.contains(request.uri.path) {
            let now = DaemonClock.now()
            // Any live session among the cookies serves; the rest are ignored (`SessionCookies`).
            let cookies = SessionCookies(request.headers[values: .cookie])
            guard let session = cookies.sessions.lazy.compactMap({ sessions.session($0, now: now) }).first else {
                return Self.secured(SignedOut.page(cookies, host: String(host.prefix { $0 != ":" }), secret: secret, sessions: sessions,
                                                   path: request.uri.path, logger: context.logger))
            }
            context.session = session
            if request.method != .get, request.method != .head {
                guard request.headers[.origin] == "http://" + host else {
                    return Self.secured(Page.plain(status: .forbidden, title: "Refused", text: "This request did not come from the health journal's own page."))
                }
                var token = request.headers[.init("X-CSRF-Token")!]
                if token == nil, request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
                    let body = try await request.collectBody(upTo: 1 << 20)
                    let form = Form(String(buffer: body))
                    context.form = form
                    token = form["csrf"]
                }
                guard let token, HMAC.constantTimeEqual(Array(token.utf8), Array(session.csrf.utf8)) else {
                    return Self.secured(Page.plain(status: .forbidden, title: "Refused",
                                                   text: "This form has expired. Go back, reload the page and try again."))
                }
            }
        }
        do {
            return Self.secured(try await next(request, context))
        } catch let error as HTTPError where error.status == .notFound {
            return Self.secured(Page.plain(status: .notFound, title: "No such page",
                                           text: "There is no page at this address.", back: ("/", "Back to your health journal")))
        } catch let error as any HTTPResponseError {
            return Self.secured(try error.response(from: request, context: context))
        } catch {
            context.logger.error("web interface: \(request.method) \(request.uri.path) failed: \(error)", metadata: ["event": "error"])
            return Self.secured(Page.plain(status: .internalServerError, title: "Something went wrong",
                                           text: "This page could not be shown, and nothing was changed. Reload the page to try again.",
                                           back: ("/", "Back to your health journal")))
        }
    }

    /// `address:port`; on port 80 also `address` alone, as a client writes the default port (RFC 9110).
    var allowedHosts: Set<String> { port == 80 ? ["\(address):\(port)", address] : ["\(address):\(port)"] }

    /// The security headers every answer carries.
    static func secured(_ response: Response) -> Response {
        var r = response
        r.headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        r.headers[.init("X-Content-Type-Options")!] = "nosniff"
        r.headers[.init("X-Frame-Options")!] = "DENY"
        r.headers[.init("Referrer-Policy")!] = "same-origin"
        r.headers[.init("Cross-Origin-Opener-Policy")!] = "same-origin"
        r.headers[.init("Cross-Origin-Resource-Policy")!] = "same-origin"
        if r.headers[.cacheControl] == nil { r.headers[.cacheControl] = "no-store" }
        return r
    }
}
