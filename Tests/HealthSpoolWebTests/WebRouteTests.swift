import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
import Testing
@testable import HealthSpoolWeb
#if canImport(Glibc)
import Glibc
#endif

/// The web interface's router on a fresh home (a temporary directory: its own configuration,
/// store and state), driven request by request through its responder (RouterClient). The client
/// sends `Host: localhost`, so the routes serve `localhost` on port 80.
final class WebFixture: Sendable {
    let dir: String
    let environment: [String: String]
    let secret = Array(repeating: UInt8(9), count: 32)
    let routes: WebRoutes
    /// The configuration the routes read (as the daemon's: set at start and at each reload).
    let current: CurrentConfiguration

    init() throws {
        var template = Array("/tmp/healthspool-web-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        environment = ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run", "TZ": "UTC"]
        current = CurrentConfiguration(try Configuration(environment: environment))
        routes = try WebRoutes(configuration: current, address: "localhost", port: 80, secret: secret)
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

    /// A redirect's address as the route wrote it: the notice its `notice=` names for
    /// `session` (held by the server, `SessionMemory`) spelled out again as `ok=…&emergency=1`,
    /// `error=…` and `&undo=…`, so an assertion reads the message the page will show.
    func said(_ response: TestResponse, _ session: WebSessions.Session) -> String? {
        response.headers[.location].flatMap { said($0, session) }
    }

    /// `said` for an address given as text (the one a recording's JSON answer carries).
    func said(_ location: String, _ session: WebSessions.Session) -> String? {
        let parts = location.split(separator: "?", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return location }
        let query = Form(parts[1])
        var fields = query.pairs.filter { $0.0 != SessionMemory.field }.map { Page.percentEncode($0.0) + "=" + Page.percentEncode($0.1) }
        if let id = query[SessionMemory.field], let held = routes.memory.held(id, session: session.id, now: DaemonClock.now().millis) {
            if let ok = held.ok { fields.append("ok=" + Page.percentEncode(ok) + (held.emergency ? "&emergency=1" : "")) }
            if let error = held.error { fields.append("error=" + Page.percentEncode(error)) }
            if let undo = held.undo { fields.append("undo=" + undo) }
        }
        return fields.isEmpty ? parts[0] : parts[0] + "?" + fields.joined(separator: "&")
    }

    /// The symptom journal of this home, to put entries in the store the pages read.
    func journal() throws -> HealthJournal { try HealthJournal.open(context: try Configuration(environment: environment)) }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}

/// `/`, the home page.
@Suite struct HomeRouteTests {
    @Test func withoutASessionTheHomePageAsksToLogInWith401() async throws {
        let web = try WebFixture()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/", method: .get)
            #expect(r.status == .unauthorized)
            #expect(r.text.contains("<h1>Please log in</h1>"))
            #expect(r.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'") == true)
        }
    }

    @Test func withASessionTheHomePageShowsTodayInTheFrame() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "text/html; charset=utf-8")
            let html = r.text
            #expect(html.contains("<title>Today – Health journal</title>"))
            #expect(html.contains("<meta name=\"csrf\" content=\"\(session.csrf)\">"))
            #expect(html.contains("<a href=\"/\" aria-current=\"page\">Today</a>"))
            // Issue 40: the steps, sleep and heart rate come before logging a symptom (above the
            // fold on a phone); the scores are the journal's, not repeated here.
            #expect(html.range(of: "id=\"fig-heart-rate\"")!.lowerBound < html.range(of: "id=\"symptom-choices\"")!.lowerBound)
            #expect(!html.contains("home-scores"))
            // The menu: the person's pages in one row, Notes among them; the setup pages beside the title.
            #expect(html.contains("<nav aria-label=\"Setup\" class=\"nav-wide nav-setup\"><ul><li><a href=\"/import\">Import</a></li><li><a href=\"/sync\">Sending</a></li><li><a href=\"/settings\">Settings</a></li></ul></nav>"))
            #expect(html.contains("<li><a href=\"/notes\">Notes</a></li>"))
            #expect(html.contains("<link rel=\"stylesheet\" href=\"\(WebAssets.path("app.css"))\">"))
            for id in ["symptom-choices", "home-doses", "home-symptoms", "home-figures", "fig-steps", "home-measurements", "goals-h"] {
                #expect(html.contains("id=\"\(id)\""), "missing \(id)")
            }
            // No daemon runs in this home: the one line about sending says so.
            #expect(html.contains("<p class=\"notice attention\" id=\"attention\">Your data is not being sent: the background service is not running.</p>"))
            #expect(html.contains("<a class=\"choice\" href=\"/symptoms/log?symptom=Back%20pain\">Back pain</a>"))
        }
    }

    @Test func whatWasTypedIsShownEscapedNeverAsMarkup() async throws {
        let web = try WebFixture()
        _ = try web.journal().logSymptom(SymptomLog(symptom: "<b>Kopf & Bauch</b>", severity: .moderate))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("&lt;b&gt;Kopf &amp; Bauch&lt;/b&gt;: moderate</li>"))
            #expect(!html.contains("<b>Kopf"))
            let journal = try await client.execute(uri: "/journal", method: .get, headers: WebFixture.headers(session)).text
            #expect(journal.contains("<td>&lt;b&gt;Kopf &amp; Bauch&lt;/b&gt;</td><td>2</td>"))
            #expect(!journal.contains("<b>Kopf"))
        }
    }

    @Test func aSavedMessageWithUndoIsShownWithItsFormAndEachFormGetsItsOwnOneTimeToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let undo = String(repeating: "ab", count: 16)
        try #require(SessionMemory.isToken(undo))
        try await web.app.test(.router) { client in
            let id = web.routes.memory.hold(.init(ok: "Saved: <i>", undo: undo, emergency: true), session: session.id, now: DaemonClock.now().millis)
            let html = try await client.execute(uri: "/?notice=\(id)", method: .get, headers: WebFixture.headers(session)).text
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
        let web = try WebFixture()
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
            #expect(web.said(done, session)?.hasPrefix("/?error=") == true)   // no goal 1 in a fresh journal
        }
    }
}

/// The style sheets and scripts: embedded, under addresses that name their content.
@Suite struct AssetRouteTests {
    @Test(arguments: ["app.css", "app.js", "days.css", "days.js"])
    func anEmbeddedFileIsServedWithoutASessionAndKeptForAYear(name: String) async throws {
        let web = try WebFixture()
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
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/static/app.0000000000000000.css", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .notFound)
            #expect(r.headers[.cacheControl] == "no-store")
        }
    }
}

/// `/day` and `/day/YYYY-MM-DD`, the day view.
@Suite struct DayRouteTests {
    @Test func withoutASessionTheDayViewAsksToLogInWith401() async throws {
        let web = try WebFixture()
        try await web.app.test(.router) { client in
            let dated = try await client.execute(uri: "/day/2026-01-15", method: .get)
            let today = try await client.execute(uri: "/day", method: .get)
            #expect(dated.status == .unauthorized)
            #expect(today.status == .unauthorized)
        }
    }

    @Test func aDayWithNothingRecordedShowsTheStripTheMonthAndSaysSo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/day/2026-01-15", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<title>Thursday 15 January 2026 – Health journal</title>"))
            #expect(html.contains("<a href=\"/day\" aria-current=\"page\">Days</a>"))
            #expect(html.contains("<script src=\"\(WebAssets.path("days.js"))\" defer></script>"))
            #expect(html.contains("<a class=\"button secondary\" id=\"prev-day\" rel=\"prev\" href=\"/day/2026-01-14\">← Previous day</a>"))
            #expect(html.contains("href=\"/day/2026-01-15\" aria-current=\"date\" aria-label=\"Thursday 15 January\" data-date=\"2026-01-15\""))
            #expect(html.contains("<h2 id=\"cal-h\">January 2026</h2>"))
            // January 2026 starts on a Thursday: three empty cells, then 31 days, then one empty cell.
            #expect(html.contains("<tbody><tr><td></td><td></td><td></td><td class=\"s0\"><a href=\"/day/2026-01-01\""))
            #expect(html.components(separatedBy: "<td").count - 1 == 35)
            #expect(html.contains("<span class=\"fv\" id=\"steps\" data-value=\"\">none recorded</span>"))
            #expect(html.contains("<p>No heart rate recorded on this day.</p>"))
            #expect(html.contains("<p>Nothing written in the journal on this day.</p>"))
        }
    }

    /// Issue 40: the day's score of a symptom logged without a group is "No group chosen", not
    /// the store's "All Symptoms", and the score says what it adds up.
    @Test func aDaysScoreIsNamedInPlainWords() async throws {
        let web = try WebFixture()
        _ = try web.journal().logSymptom(SymptomLog(symptom: "Headache", severity: .moderate))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/day", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<ul id=\"scores\"><li>No group chosen: 2 (1 entry)</li></ul>"))
            #expect(html.contains("added up per group: mild 1, moderate 2, severe 3, debilitating 4."))
            #expect(!html.contains("All Symptoms"))
        }
    }

    @Test func anAddressThatIsNoDateIsNoSuchDay() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/day/2026-13-45", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .notFound)
            #expect(r.text.contains("<h1>No such day</h1>"))
        }
    }

    @Test func aLoggedSymptomIsListedEscapedWithChangeAndDeleteAndDeletingItNeedsTheCSRFToken() async throws {
        let web = try WebFixture()
        let (entry, _) = try web.journal().logSymptom(SymptomLog(symptom: "Ache <i>", severity: .severe, note: "\"sharp\""))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/day", method: .get, headers: WebFixture.headers(session)).text
            let time = String(entry.at.iso8601Local.dropFirst(11).prefix(5))
            #expect(html.contains("<li data-entry=\"\(entry.id)\"><span class=\"what\">\(time) Ache &lt;i&gt;: severe – &quot;sharp&quot;</span>"))
            #expect(html.contains("aria-label=\"Delete: Ache &lt;i&gt; at \(time)\">Delete</button>"))
            #expect(html.contains("<form method=\"post\" action=\"/symptoms/delete\" class=\"\"><input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"))
            #expect(html.contains("<h3>Scores</h3>"))

            let body = "id=\(entry.id)&back=%2Fday"
            let refused = try await client.execute(uri: "/symptoms/delete", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: body))
            #expect(refused.status == .forbidden)
            let deleted = try await client.execute(uri: "/symptoms/delete", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: "csrf=\(session.csrf)&" + body))
            #expect(deleted.status == .seeOther)
            #expect(web.said(deleted, session)?.contains("undo=") == true)
        }
    }
}

/// `/measure`, the measurements page, and its forms.
@Suite struct MeasureRouteTests {
    @Test func withoutASessionTheMeasurementsAskToLogInAndAPostWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let page = try await client.execute(uri: "/measure", method: .get)
            #expect(page.status == .unauthorized)
            let post = try await client.execute(uri: "/measure", method: .post, headers: WebFixture.headers(session, form: true),
                                                body: ByteBuffer(string: "kind=hr&value-hr=60"))
            #expect(post.status == .forbidden)
        }
    }

    @Test func anEmptyJournalShowsEveryKindWithNoneTheFormsAndNoReadings() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/measure?range=90", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<li id=\"latest-bloodPressure\"><span class=\"ft\">Blood pressure</span><span class=\"when\">None in the last"))
            #expect(html.contains("<a class=\"button secondary\" href=\"/measure?range=90#charts\" aria-current=\"page\">Last 90 days</a>"))
            #expect(html.contains("<p>No readings in the last 90 days.</p>"))
            for kind in ["bp", "hr", "spo2", "glucose", "weight", "steps"] {
                #expect(html.contains("<input type=\"hidden\" name=\"kind\" value=\"\(kind)\">"), "no \(kind) form")
            }
            #expect(html.contains("<input id=\"f-since\" name=\"since\" type=\"text\" value=\"00:00\" required autocomplete=\"off\" class=\"short\" aria-describedby=\"f-since-hint\">"))
            #expect(!html.contains("autofocus"))
        }
    }

    @Test func aBloodPressureSavedIsShownBackWithUndo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let saved = try await client.execute(uri: "/measure", method: .post, headers: WebFixture.headers(session, form: true),
                                                 body: ByteBuffer(string: "csrf=\(session.csrf)&kind=bp&systolic=128&diastolic=82"))
            #expect(saved.status == .seeOther)
            let address = try #require(saved.headers[.location])
            let location = try #require(web.said(saved, session))
            #expect(location.hasPrefix("/measure?ok=Saved") && location.contains("&undo="))
            let html = try await client.execute(uri: address, method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<div class=\"notice ok undoable\" role=\"status\"><p>Saved: blood pressure 128/82 mmHg, at "))
            #expect(html.contains("<span class=\"fv\">128/82 mmHg</span>"))
            #expect(html.contains("<span class=\"kind\">Blood pressure</span> <strong>128/82 mmHg</strong>"))
            #expect(html.contains("<h3 id=\"chart-bloodPressure-h\">Blood pressure</h3><svg"))
        }
    }

    @Test func aValueThatIsNoNumberIsRefusedNextToItsFieldKeepingWhatWasTyped() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/measure", method: .post, headers: WebFixture.headers(session, form: true),
                                             body: ByteBuffer(string: "csrf=\(session.csrf)&kind=spo2&value-spo2=97%25"))
            #expect(r.status.code == 422)
            let html = r.text
            #expect(html.contains("<p class=\"notice error\" role=\"alert\">Your blood oxygen was not saved. See the message next to the number.</p>"))
            #expect(html.contains("<p class=\"error\" id=\"f-value-spo2-error\">"))
            #expect(html.contains("<input id=\"f-value-spo2\" name=\"value-spo2\" type=\"text\" value=\"97%\" required autocomplete=\"off\" inputmode=\"numeric\" aria-invalid=\"true\" autofocus aria-describedby=\"f-value-spo2-error\">"))
            #expect(html.components(separatedBy: "autofocus").count == 2)
            #expect(!html.contains("id=\"charts\""))
        }
    }
}

/// `/journal`, today's journal.
@Suite struct JournalRouteTests {
    @Test func withoutASessionTheJournalAsksToLogIn() async throws {
        let web = try WebFixture()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/journal", method: .get)
            #expect(r.status == .unauthorized)
        }
    }

    @Test func anEmptyDayListsTheGroupsAtZeroNoSymptomScoresAndTheGoalsAreLeftToToday() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/journal", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<a href=\"/journal\" aria-current=\"page\">Journal</a>"))
            #expect(html.contains("<h2 id=\"today-h\">Symptoms today</h2><p>Nothing logged today.</p>"))
            // The groups are listed at 0 (nothing logged); no symptom has a score yet.
            #expect(html.contains("<table id=\"scores-category\">"))
            #expect(html.contains("<h3>By symptom</h3><p>No scores yet.</p>"))
            #expect(!html.contains("id=\"goals\"") && !html.contains("No goals for today."))
        }
    }

    @Test func todaysSymptomIsListedAndScoredPerSymptomAndDeletingItNeedsTheCSRFToken() async throws {
        let web = try WebFixture()
        let (entry, _) = try web.journal().logSymptom(SymptomLog(symptom: "Nausea & <dizziness>", severity: .mild))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/journal", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<ul class=\"entries\" id=\"symptom-entries\"><li data-entry=\"\(entry.id)\">"))
            #expect(html.contains("<table id=\"scores-symptom\">"))
            #expect(html.contains("<tr><td>Nausea &amp; &lt;dizziness&gt;</td><td>1</td><td>1</td></tr>"))
            #expect(html.contains("<input type=\"hidden\" name=\"back\" value=\"/journal\">"))
            let refused = try await client.execute(uri: "/symptoms/delete", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: "id=\(entry.id)&back=%2Fjournal"))
            #expect(refused.status == .forbidden)
        }
    }
}

/// `/meds`, the medications page, and "Taken now".
@Suite struct MedicationsRouteTests {
    @Test func withoutASessionTheMedicationsAskToLogIn() async throws {
        let web = try WebFixture()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/meds", method: .get)
            #expect(r.status == .unauthorized)
        }
    }

    @Test func noMedicationsYetShowsTheAddFormOnly() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/meds", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<p>No medications yet. Add one below.</p>"))
            #expect(!html.contains("id=\"medications\""))
            #expect(html.contains("<input id=\"f-name\" name=\"name\" type=\"text\" value=\"\" required autocomplete=\"off\">"))
            #expect(html.contains("<input id=\"f-dose\" name=\"dose\" type=\"text\" value=\"\" aria-describedby=\"f-dose-hint\">"))
        }
    }

    @Test func aMedicationAddedAndTakenIsListedWithItsDoseAndTakingItNeedsTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let added = try await client.execute(uri: "/meds/add", method: .post, headers: WebFixture.headers(session, form: true),
                                                 body: ByteBuffer(string: "csrf=\(session.csrf)&name=Ibu%3Cprofen%3E&dose=400%20mg"))
            #expect(added.status == .seeOther)
            var html = try await client.execute(uri: "/meds", method: .get, headers: WebFixture.headers(session)).text
            let id = try #require(html.components(separatedBy: "<li class=\"entry\" id=\"med-").dropFirst().first?.prefix { $0.isNumber })
            #expect(html.contains("<p><strong>Ibu&lt;profen&gt;</strong> – 400 mg</p><button type=\"submit\" aria-label=\"Taken: Ibu&lt;profen&gt;\">Taken now</button>"))
            #expect(html.contains("<br><span class=\"rule\">400 mg</span>"))
            #expect(html.contains("<h2>Taken today</h2><p>Nothing logged today.</p>"))

            let refused = try await client.execute(uri: "/meds/take", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: "id=\(id)"))
            #expect(refused.status == .forbidden)
            let taken = try await client.execute(uri: "/meds/take", method: .post, headers: WebFixture.headers(session, form: true),
                                                 body: ByteBuffer(string: "csrf=\(session.csrf)&id=\(id)"))
            #expect(taken.status == .seeOther)
            // The confirmation names the dose's time as the journal logged it (in its zone).
            let dose = try #require(try web.journal().doses(on: nil).first?.0)
            let logged = "Logged: Ibu<profen> taken at \(dose.takenAt.iso8601Local.dropFirst(11).prefix(5))."
            #expect(web.said(taken, session)?.hasPrefix("/meds?ok=" + Page.percentEncode(logged) + "&undo=") == true, "\(String(describing: web.said(taken, session)))")
            html = try await client.execute(uri: "/meds", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<ul class=\"entries\" id=\"doses\"><li data-dose=\""))
            #expect(html.contains("<input type=\"hidden\" name=\"back\" value=\"/meds\">"))
        }
    }
}

/// `/sync`, the sending page, and Sync now.
@Suite struct SyncRouteTests {
    @Test func withoutASessionTheSendingPageAsksToLogInAndSyncNowIsRefusedWithoutTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let page = try await client.execute(uri: "/sync", method: .get)
            #expect(page.status == .unauthorized)
            var headers = WebFixture.headers(session)
            headers[.origin] = "http://localhost"
            let start = try await client.execute(uri: "/sync", method: .post, headers: headers)
            #expect(start.status == .forbidden)
        }
    }

    @Test func aFreshHomeSaysTheServiceIsNotRunningNothingWaitsAndNothingWasSent() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/sync", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<a href=\"/sync\" aria-current=\"page\">Sending</a>"))
            #expect(html.contains("<p class=\"state stopped\" id=\"daemon-state\" data-state=\"stopped\">Not running</p>"))
            #expect(html.contains("<p>Nothing has been sent yet.</p>"))
            #expect(html.contains("<button type=\"button\" id=\"sync-now\">Send now</button>"))
            #expect(html.contains("<p>No sends yet.</p>"))
        }
    }

    @Test func aLoggedSymptomWaitsToBeSentAsAKindOfData() async throws {
        let web = try WebFixture()
        _ = try web.journal().logSymptom(SymptomLog(symptom: "Headache", severity: .mild))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/sync", method: .get, headers: WebFixture.headers(session)).text
            #expect(!html.contains("<p>Nothing is waiting.</p>"))
            #expect(html.contains("<table><thead><tr><th scope=\"col\">Kind of data</th><th scope=\"col\">Entries</th></tr></thead><tbody><tr><td>"))
            #expect(html.contains("<svg"))
        }
    }
}

/// `/symptoms/log`, the second step of logging a symptom.
@Suite struct SymptomLogRouteTests {
    @Test func withoutASessionItAsksToLogInAndSavingIsRefusedWithoutTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let page = try await client.execute(uri: "/symptoms/log?symptom=Headache", method: .get)
            #expect(page.status == .unauthorized)
            let post = try await client.execute(uri: "/symptoms/log", method: .post, headers: WebFixture.headers(session, form: true),
                                                body: ByteBuffer(string: "symptom=Headache&severity=mild"))
            #expect(post.status == .forbidden)
        }
    }

    @Test func theChosenSymptomIsKeptEscapedWithFourSeverityButtonsAndTheSuggestions() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/symptoms/log?symptom=Pain%20%3Cleft%3E", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<title>Log: Pain &lt;left&gt; – Health journal</title>"))
            #expect(html.contains("<input type=\"hidden\" name=\"symptom\" value=\"Pain &lt;left&gt;\">"))
            #expect(html.components(separatedBy: "<button type=\"submit\" name=\"severity\"").count == 5)
            #expect(html.contains("<button type=\"submit\" name=\"severity\" value=\"severe\" class=\"severity s3\">Severe<span>It stops me doing some things</span></button>"))
            #expect(html.contains("<datalist id=\"categories\"><option value=\""))
            #expect(html.contains("<input id=\"f-category\" name=\"category\" type=\"text\" value=\"\" list=\"categories\" autocomplete=\"off\" aria-describedby=\"f-category-hint\">"))
        }
    }

    @Test func noSymptomChosenSaysSoWithAWayBack() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/symptoms/log", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<p>No symptom was chosen. <a href=\"/\">Back to the start page</a>.</p>"))
            #expect(!html.contains("name=\"severity\""))
        }
    }

    @Test func aSeverityChosenSavesTheEntryAndLandsOnTheJournalWithUndo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/symptoms/log", method: .post, headers: WebFixture.headers(session, form: true),
                                             body: ByteBuffer(string: "csrf=\(session.csrf)&symptom=Headache&severity=moderate"))
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/journal?ok=Saved%3A%20Headache%2C%20moderate") == true)
            #expect(try web.journal().symptoms(on: nil).map(\.symptom) == ["Headache"])
        }
    }
}
