import HealthSpoolCore
import HealthSpoolLock
import Logging
import Mustache
import Testing
@testable import HealthSpoolWeb

@Suite struct LoginLinkTests {
    let secret = Array(repeating: UInt8(7), count: 32)
    let now = Timestamp(millis: 1_800_000_000_000)

    @Test func hmacMatchesRFC4231Case2() {
        let mac = HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aFreshLinkIsValidUntilItExpires() throws {
        let link = LoginLink.make(secret: secret, now: now)
        let parsed = try #require(LoginLink(token: link.token))
        #expect(parsed == link)
        #expect(parsed.isValid(secret: secret, now: now))
        #expect(!parsed.isValid(secret: secret, now: Timestamp(millis: now.millis + LoginLink.lifetimeMillis)))
    }

    @Test func aLinkSignedWithAnotherSecretOrAlteredIsRefused() throws {
        let link = LoginLink.make(secret: secret, now: now)
        #expect(!link.isValid(secret: Array(repeating: 8, count: 32), now: now))
        var later = link
        later.expiresMillis += 3_600_000
        #expect(!later.isValid(secret: secret, now: now))
        #expect(LoginLink(token: "1.abc.def") == nil)
    }

    @Test func aLinkOpensOneSessionOnly() throws {
        let sessions = WebSessions()
        let link = LoginLink.make(secret: secret, now: now)
        let session = try #require(sessions.redeem(link, secret: secret, now: now))
        #expect(sessions.redeem(link, secret: secret, now: now) == nil)
        #expect(sessions.session(session.id, now: now)?.csrf == session.csrf)
        #expect(sessions.session(session.id, now: Timestamp(millis: now.millis + WebSessions.lifetimeMillis)) == nil)
        sessions.end(session.id)
        #expect(sessions.session(session.id, now: now) == nil)
    }
}

@Suite struct PageTests {
    @Test func textIsEscaped() {
        #expect(Page.escape("<script>\"a\"&'b'") == "&lt;script&gt;&quot;a&quot;&amp;&#39;b&#39;")
    }

    @Test func formsAreDecoded() {
        let f = Form("name=Ibu+profen%20400&on=a&on=b&empty=&csrf=x%2By")
        #expect(f["name"] == "Ibu profen 400")
        #expect(f.all("on") == ["a", "b"])
        #expect(f["empty"] == "")
        #expect(f["csrf"] == "x+y")
    }

    /// The overview counts queued samples only up to its limit (millions take a second).
    @Test func aQueuedCountPastTheOverviewsLimitReadsMoreThan() {
        #expect(SyncPage.queuedText(42) == "42")
        #expect(SyncPage.queuedText(SyncPage.queuedCountLimit) == "10000")
        #expect(SyncPage.queuedText(SyncPage.queuedCountLimit + 1) == "more than 10,000")
    }

    @Test func typeNamesAreShownInPlainWords() {
        #expect(Format.typeName("heartRate") == "Heart rate")
        #expect(Format.typeName("HKQuantityTypeIdentifierDietaryBiotin") == "Dietary biotin")
    }

    @Test func theFrameEscapesItsTitleMarksTheCurrentSectionAndHasNoInlineScript() {
        let html = WebTemplates.render(PageFrame(title: "T<", path: "/meds", keys: FormKeys(csrf: "tok") { "once-1" }), .layout)
        #expect(html.contains("<title>T&lt; – Health journal</title>"))
        #expect(html.contains("<a href=\"/meds\" aria-current=\"page\""))
        #expect(!html.contains("<script>"))
    }

    @Test func aFormCarriesTheSessionsTokenAndAFreshOneTimeToken() throws {
        let issued = Lock(0)
        let keys = FormKeys(csrf: "tok") { issued.withLock { $0 += 1; return "once-\($0)" } }
        let twice = try MustacheTemplate(string: "{{>form-keys}}{{>form-keys}}").render(KeyFields(keys), library: WebTemplates.embedded.get().library)
        #expect(twice.contains("name=\"csrf\" value=\"tok\""))
        #expect(twice.contains("name=\"once\" value=\"once-1\""))
        #expect(twice.contains("name=\"once\" value=\"once-2\""))
    }
}

/// Hummingbird's server writes to the logger it is given; what reaches the journal from it must be
/// structured (an `event` field) and not its info chatter (the e2e journal check saw
/// "Server started and listening on …" without fields).
@Suite struct ServerLoggerTests {
    @Test func theServerLogsWarningsAndUpWithTheEventWeb() {
        var daemon = Logger(label: "healthspool")
        daemon.logLevel = .info
        let server = WebInterface.serverLogger(daemon)
        #expect(server.logLevel == .warning)
        #expect(server[metadataKey: "event"] == "web")
        daemon.logLevel = .error
        #expect(WebInterface.serverLogger(daemon).logLevel == .error, "a stricter level set by the person stays")
    }
}
