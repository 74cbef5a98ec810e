@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
import HummingbirdTesting
import Testing
@testable import HealthSpoolWeb
#if canImport(Glibc)
import Glibc
#endif

/// The web interface's router on a fresh home (a temporary directory: its own configuration,
/// store and state), driven request by request with HummingbirdTesting. The router test
/// framework sends `Host: localhost`, so the routes serve `localhost` on port 80.
final class WebFixture: Sendable {
    let dir: String
    let environment: [String: String]
    let secret = Array(repeating: UInt8(9), count: 32)
    let routes: WebRoutes

    init() {
        var template = Array("/tmp/healthspool-web-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        environment = ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run", "TZ": "UTC"]
        routes = WebRoutes(environment: environment, address: "localhost", port: 80, secret: secret)
    }

    deinit { _ = try? FileSystem.removeTree(dir) }

    var app: some ApplicationProtocol { Application(router: routes.router()) }

    /// A session opened by a login link, as `healthspool ui` opens one.
    func session() throws -> WebSessions.Session {
        try #require(routes.sessions.redeem(LoginLink.make(secret: secret, now: DaemonClock.now()), secret: secret, now: DaemonClock.now()))
    }

    /// The headers of a request in `session`; with `form`, a form post from the page's origin.
    static func headers(_ session: WebSessions.Session?, form: Bool = false) -> HTTPFields {
        var h = HTTPFields()
        if let session { h[.cookie] = "hs_session=\(session.id)" }
        if form {
            h[.origin] = "http://localhost"
            h[.contentType] = "application/x-www-form-urlencoded"
        }
        return h
    }

    /// The symptom journal of this home, to put entries in the store the pages read.
    func journal() throws -> JournalUseCases { try JournalUseCases.open(context: try DaemonContext(environment: environment)) }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}

/// `/`, the home page.
@Suite struct HomeRouteTests {
    @Test func withoutASessionTheHomePageAsksToLogInWith401() async throws {
        let web = WebFixture()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/", method: .get)
            #expect(r.status == .unauthorized)
            #expect(r.text.contains("<h1>Please log in</h1>"))
            #expect(r.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'") == true)
        }
    }

    @Test func withASessionTheHomePageShowsTodayInTheFrame() async throws {
        let web = WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "text/html; charset=utf-8")
            let html = r.text
            #expect(html.contains("<title>Today – Health journal</title>"))
            #expect(html.contains("<meta name=\"csrf\" content=\"\(session.csrf)\">"))
            #expect(html.contains("<a href=\"/\" aria-current=\"page\">Today</a>"))
            #expect(html.contains("<link rel=\"stylesheet\" href=\"\(WebAssets.path("app.css"))\">"))
            for id in ["symptom-choices", "home-doses", "home-symptoms", "home-figures", "fig-steps", "goals-h"] {
                #expect(html.contains("id=\"\(id)\""), "missing \(id)")
            }
            // No daemon runs in this home: the one line about sending says so.
            #expect(html.contains("<p class=\"notice attention\" id=\"attention\">Your data is not being sent: the background service is not running.</p>"))
            #expect(html.contains("<a class=\"choice\" href=\"/symptoms/log?symptom=Back%20pain\">Back pain</a>"))
        }
    }

    @Test func whatWasTypedIsShownEscapedNeverAsMarkup() async throws {
        let web = WebFixture()
        _ = try web.journal().logSymptom(SymptomLog(symptom: "<b>Kopf & Bauch</b>", severity: .moderate))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("&lt;b&gt;Kopf &amp; Bauch&lt;/b&gt;: moderate</li>"))
            #expect(html.contains("<li>&lt;b&gt;Kopf &amp; Bauch&lt;/b&gt;: 2 (1 entry)</li>"))
            #expect(!html.contains("<b>Kopf"))
        }
    }

    @Test func aSavedMessageWithUndoIsShownWithItsFormAndEachFormGetsItsOwnOneTimeToken() async throws {
        let web = WebFixture()
        let session = try web.session()
        let undo = String(repeating: "ab", count: 16)
        try #require(UndoLog.isToken(undo))
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/?ok=Saved%3A%20%3Ci%3E&undo=\(undo)&emergency=1", method: .get,
                                                headers: WebFixture.headers(session)).text
            #expect(html.contains("<div class=\"notice ok undoable\" role=\"status\"><p>Saved: &lt;i&gt;</p><form method=\"post\" action=\"/undo\" class=\"undo\">"))
            #expect(html.contains("<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"))
            #expect(html.contains("<input type=\"hidden\" name=\"undo\" value=\"\(undo)\"><input type=\"hidden\" name=\"back\" value=\"/\">"))
            #expect(html.contains("<p class=\"emergency\" id=\"emergency\">\(EmergencyLine.text)</p>"))
            let onces = html.components(separatedBy: "name=\"once\" value=\"").dropFirst().map { String($0.prefix(32)) }
            #expect(onces.count == 1)
            #expect(onces.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        }
    }

    @Test func aFormOnTheHomePageIsRefusedWithoutTheCSRFTokenAndDoneWithIt() async throws {
        let web = WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let refused = try await client.execute(uri: "/goals/done", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: "id=1&back=%2F"))
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("This form has expired."))
            let noSession = try await client.execute(uri: "/goals/done", method: .post, headers: WebFixture.headers(nil, form: true),
                                                     body: ByteBuffer(string: "csrf=\(session.csrf)&id=1&back=%2F"))
            #expect(noSession.status == .unauthorized)
            let done = try await client.execute(uri: "/goals/done", method: .post, headers: WebFixture.headers(session, form: true),
                                                body: ByteBuffer(string: "csrf=\(session.csrf)&id=1&back=%2F"))
            #expect(done.status == .seeOther)
            #expect(done.headers[.location]?.hasPrefix("/?error=") == true)   // no goal 1 in a fresh journal
        }
    }
}

/// The style sheets and scripts: embedded, under addresses that name their content.
@Suite struct AssetRouteTests {
    @Test(arguments: ["app.css", "app.js", "days.css", "days.js"])
    func anEmbeddedFileIsServedWithoutASessionAndKeptForAYear(name: String) async throws {
        let web = WebFixture()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: WebAssets.path(name), method: .get)
            #expect(r.status == .ok)
            #expect(r.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(r.headers[.contentType] == (name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"))
            #expect(r.text == WebFiles.assets[name]?.text)
            #expect(!r.text.isEmpty)
        }
    }

    @Test func anAddressWithAnotherHashIsNoFile() async throws {
        let web = WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/static/app.0000000000000000.css", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .notFound)
            #expect(r.headers[.cacheControl] == "no-store")
        }
    }
}
