import HealthSpoolCore
import Hummingbird
import Logging
import Synchronization
import Testing
@testable import HealthSpoolWeb

/// Issue 39: another user's page on the same loopback address (cookies are kept by host, not by
/// port) sets cookies for it: many large ones (a cookie bomb) or an `hs_session` of its own
/// (cookie tossing); or sends the browser to a page of the journal's with `?ok=` text.
@Suite struct SessionCookiesTests {
    @Test func everySessionValueIsFoundAmongForeignCookiesAndTheOthersAreNamedOnce() {
        let c = SessionCookies(["a=1; hs_session=first;b=2 ;  hs_session=\"second\"; a=3; =x; bad name=4; hs_session=; c"])
        #expect(c.sessions == ["first", "second"])
        #expect(c.foreign == ["a", "b", "c"])
        #expect(c.count == 9)
        #expect(SessionCookies(["x=1", "hs_session=s"]).sessions == ["s"])
    }

    @Test func aCookieBombIsBoundedAndItsCookiesAreExpiredByName() {
        let bomb = (0..<400).map { "bomb\($0)=" + String(repeating: "x", count: 4000) }.joined(separator: "; ")
        let c = SessionCookies([bomb + "; hs_session=mine"])
        #expect(c.sessions == ["mine"])
        #expect(c.foreign.count == SessionCookies.maximumForeign)
        #expect(c.bytes > 1_600_000)
        let expiring = SessionCookies(["z=1"]).expiring(host: "127.1.2.3")
        #expect(expiring == ["z=; Path=/; Max-Age=0", "z=; Path=/; Domain=127.1.2.3; Max-Age=0"])
    }

    @Test func aSessionCookieTheJournalSetIsSignedAndOneItDidNotIsNot() throws {
        let secret = Array(repeating: UInt8(9), count: 32)
        let sessions = WebSessions()
        let s = try #require(sessions.redeem(LoginLink.make(secret: secret, now: DaemonClock.now()), secret: secret, now: DaemonClock.now()))
        #expect(WebSessions.isSigned(s.id, secret: secret))
        #expect(!WebSessions.isSigned(s.id, secret: Array(repeating: 8, count: 32)))
        #expect(!WebSessions.isSigned(String(s.id.prefix(64)), secret: secret))
        #expect(!WebSessions.isSigned(String(s.id.prefix(64)) + "." + String(repeating: "0", count: 64), secret: secret))
        #expect(!WebSessions.isSigned("forged", secret: secret))
    }
}

/// The routes with the neighbour's cookies and addresses.
@Suite struct NeighbourRouteTests {
    static func headers(cookie: String) -> HTTPFields {
        var h = HTTPFields()
        h[.cookie] = cookie
        return h
    }

    @Test func anyLiveSessionAmongSeveralSessionCookiesAndFortyForeignOnesOfFourKilobytesServesInEitherOrder() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let bomb = (0..<40).map { "bomb\($0)=" + String(repeating: "x", count: 4000) }.joined(separator: "; ")
        try await web.app.test(.router) { client in
            for cookie in ["hs_session=tossed; \(bomb); hs_session=\(session.id)", "hs_session=\(session.id); \(bomb); hs_session=tossed"] {
                let r = try await client.execute(uri: "/meds", method: .get, headers: Self.headers(cookie: cookie))
                #expect(r.status == .ok, "\(cookie.prefix(40))")
            }
        }
    }

    @Test func aTossedSessionCookieIsToldPlainlyExpiredWithTheForeignCookiesAndLoggedOnce() async throws {
        let web = try WebFixture()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/journal", method: .get, headers: Self.headers(cookie: "hs_session=tossed; bomb=xyz"))
            #expect(r.status == .unauthorized)
            #expect(r.text.contains("<h1>Your login was replaced</h1>"))
            #expect(r.text.contains("a login cookie that the health journal did not set"))
            #expect(r.text.contains("1 other cookie for this address"))
            let set = r.headers[values: .setCookie]
            #expect(set.contains("bomb=; Path=/; Max-Age=0") && set.contains("bomb=; Path=/; Domain=localhost; Max-Age=0"))
            #expect(set.contains("hs_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"))
        }
        let lines = LoggedLines()
        let logger = Logger(label: "test") { _ in LineHandler(lines: lines) }
        let cookies = SessionCookies(["hs_session=tossed-again"])
        for _ in 0..<3 {
            _ = SignedOut.page(cookies, host: "localhost", secret: web.secret, sessions: web.routes.sessions, path: "/", logger: logger)
        }
        let logged = lines.all.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("session cookie the journal did not set") == true)
    }

    @Test func aSessionThatEndedSaysSoAndNoCookieAsksToLogIn() async throws {
        let web = try WebFixture()
        let session = try web.session()
        web.routes.sessions.end(session.id)
        try await web.app.test(.router) { client in
            let ended = try await client.execute(uri: "/", method: .get, headers: Self.headers(cookie: "hs_session=\(session.id)"))
            #expect(ended.status == .unauthorized)
            #expect(ended.text.contains("<h1>Please log in</h1>") && ended.text.contains("Your session has ended"))
            #expect(ended.headers[values: .setCookie].isEmpty)
        }
    }

    @Test func theLoginLinkExpiresTheForeignCookiesItCanName() async throws {
        let web = try WebFixture()
        let link = LoginLink.make(secret: web.secret, now: DaemonClock.now())
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/login?token=\(link.token)", method: .get, headers: Self.headers(cookie: "bomb0=x; bomb1=y"))
            #expect(r.status == .seeOther)
            let set = r.headers[values: .setCookie]
            #expect(set.first?.hasPrefix("hs_session=") == true)
            #expect(set.contains("bomb0=; Path=/; Max-Age=0") && set.contains("bomb1=; Path=/; Domain=localhost; Max-Age=0"))
        }
    }

    @Test func messageTextInTheAddressIsNeverShownNorIsAnotherSessionsNotice() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let other = try web.session()
        let theirs = web.routes.memory.hold(.init(ok: "Held for another session"), session: other.id, now: DaemonClock.now().millis)
        try await web.app.test(.router) { client in
            for uri in ["/?ok=Your%20health%20data%20was%20lost.%20Call%20555-0100", "/settings?error=Your%20health%20data%20was%20lost",
                        "/journal?ok=x&emergency=1", "/?notice=\(theirs)", "/?notice=0123456789abcdef0123456789abcdef"] {
                let html = try await client.execute(uri: uri, method: .get, headers: WebFixture.headers(session)).text
                #expect(!html.contains("555-0100") && !html.contains("was lost") && !html.contains("Held for another"), "\(uri)")
                #expect(!html.contains("class=\"notice ok") && !html.contains("class=\"notice error") && !html.contains("id=\"emergency\""), "\(uri)")
            }
        }
    }

    @Test func aRedirectAfterAPostCarriesNoMessageTextAndItsPageShowsTheMessage() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await WebFixture.post(client, "/settings/frequency", session, "frequency=daily")
            let location = try #require(r.headers[.location])
            #expect(!location.contains("ok=") && !location.contains("Saved"))
            let html = try await client.execute(uri: location, method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<p class=\"notice ok\" role=\"status\">Saved how often data is sent.</p>"))
        }
    }
}

/// The messages a `LineHandler` kept.
final class LoggedLines: Sendable {
    let all = Mutex<[String]>([])
}

/// A log handler that keeps each message.
struct LineHandler: LogHandler {
    let lines: LoggedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        lines.all.withLock { $0.append("\(message)") }
    }
}
