import HealthSpoolCore
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

    @Test func theDocumentCarriesTheTokenAndNoInlineScript() {
        var p = Page(title: "T<", path: "/", csrf: FormKeys(csrf: "tok") { "once-1" })
        p.form("/x") { $0.raw("<button type=\"submit\">Go</button>") }
        let html = p.document()
        #expect(html.contains("name=\"csrf\" value=\"tok\""))
        #expect(html.contains("name=\"once\" value=\"once-1\""))
        #expect(html.contains("<title>T&lt; – Health journal</title>"))
        #expect(!html.contains("<script>"))
        #expect(html.contains("aria-current=\"page\""))
    }
}
