import Hummingbird
import Logging

/// The page a request without a live session gets (401), saying what happened (issue 39):
/// no session cookie, or one this journal set whose session ended: "Please log in"; a session
/// cookie the journal never set (another program replaced the person's: cookie tossing):
/// "Your login was replaced", logged once. Cookies the journal did not set that came along
/// (a cookie bomb from a page of another user's on this address) are counted and expired, so
/// the login that follows starts afresh.
enum SignedOut {
    /// Why no session serves the request.
    enum Reason: Equatable {
        /// No session cookie came.
        case none
        /// The journal's own cookie, of a session that ended (expired, logged out, restarted).
        case ended
        /// A session cookie the journal did not set.
        case foreign
    }

    static func reason(_ cookies: SessionCookies, secret: [UInt8]) -> Reason {
        if cookies.sessions.contains(where: { !WebSessions.isSigned($0, secret: secret) }) { return .foreign }
        return cookies.sessions.isEmpty ? .none : .ended
    }

    static let howToLogIn = "open Health journal from your applications menu: it opens this page logged in."

    /// The 401 page for `cookies` on `host` (the address without its port); logs a foreign
    /// session cookie the first time it comes.
    static func page(_ cookies: SessionCookies, host: String, secret: [UInt8], sessions: WebSessions, path: String, logger: Logger) -> Response {
        let reason = reason(cookies, secret: secret)
        var title = "Please log in", text = "To open your health journal, " + howToLogIn
        if reason == .foreign {
            title = "Your login was replaced"
            text = "This browser sent a login cookie that the health journal did not set, in place of yours: a program of another user "
                + "of this computer can do that, from a page it serves on this address. Nothing of your journal was shown or changed. "
                + "To log in again, " + howToLogIn
            if let value = cookies.sessions.first(where: { !WebSessions.isSigned($0, secret: secret) }), sessions.firstReport(of: value) {
                logger.warning("web interface: a request for \(path) came with a session cookie the journal did not set (another program may have replaced the person's login); the page asks to log in again",
                               metadata: ["event": "security", "web.cookies": "\(cookies.count)"])
            }
        } else if reason == .ended {
            text = "Your session has ended (a session lasts 12 hours, and ends when you log out or the background service restarts). To log in again, " + howToLogIn
        }
        if !cookies.foreign.isEmpty {
            text += " This browser also sent \(cookies.foreign.count) other cookie\(cookies.foreign.count == 1 ? "" : "s") for this address "
                + "(\(kilobytes(cookies.bytes))) that the journal did not set; this page removes them."
        }
        var r = Page.plain(status: .unauthorized, title: title, text: text)
        r.headers[values: .setCookie] = cookies.expiring(host: host)
            + (reason == .foreign ? ["\(SessionCookies.name)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"] : [])
        return r
    }

    static func kilobytes(_ bytes: Int) -> String { bytes < 1024 ? "\(bytes) bytes" : "\((bytes + 512) / 1024) KB" }
}
