import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
import Testing
@testable import HealthSpoolWeb

/// The routes of the settings, notes, lifestyle, summary and import pages, on a fresh home
/// (`WebFixture`): each asks to log in without a session, refuses a form without the CSRF
/// token, and shows what was typed escaped.
extension WebFixture {
    /// The journal of this home as notes and the summary read it.
    func healthJournal() throws -> HealthJournal { try HealthJournal(context: try Configuration(environment: environment)) }

    /// A form post in `session` with `body`, its CSRF token first unless `csrf` is false.
    static func post(_ client: some TestClientProtocol, _ uri: String, _ session: WebSessions.Session?, csrf: Bool = true,
                     _ body: String) async throws -> TestResponse {
        let token = csrf ? "csrf=\(session?.csrf ?? "")&" : ""
        return try await client.execute(uri: uri, method: .post, headers: headers(session, form: true), body: ByteBuffer(string: token + body))
    }
}

/// `/settings` and its forms.
@Suite struct SettingsRouteTests {
    @Test func withoutASessionSettingsAskToLogInAndAFormWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let page = try await client.execute(uri: "/settings", method: .get)
            #expect(page.status == .unauthorized)
            let noToken = try await WebFixture.post(client, "/settings/lock", session, csrf: false, "locked=1")
            #expect(noToken.status == .forbidden)
            let noSession = try await WebFixture.post(client, "/settings/lock", nil, "locked=1")
            #expect(noSession.status == .unauthorized)
        }
        #expect(!LockFlag.isSet(context: try Configuration(environment: web.environment)))
    }

    @Test func aFreshHomeIsUnlockedSendsAtOnceInMmolWithNoServerAndEveryKindChecked() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/settings", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<a href=\"/settings\" aria-current=\"page\">Settings</a>"))
            #expect(html.contains("<p>Not locked: new data is read and sent.</p><input type=\"hidden\" name=\"locked\" value=\"1\"><button type=\"submit\">Lock</button>"))
            #expect(html.contains("for 30 days, in case one has to be read again."))
            #expect(html.contains("<option value=\"realtime\" selected>As soon as there is new data</option><option value=\"hourly\">Once an hour</option>"))
            #expect(html.contains("<input type=\"radio\" id=\"glucose-mmol\" name=\"unit\" value=\"mmol/L\" checked><label for=\"glucose-mmol\">mmol/L (for example 5.4)</label>"))
            #expect(html.contains("No receiving server is set"))
            #expect(html.contains("<input type=\"checkbox\" id=\"t-heartRate\" name=\"on-heartRate\" value=\"1\" checked aria-describedby=\"t-heartRate-d\"><div><label for=\"t-heartRate\">Heart rate</label>"))
            for category in DataCategory.allCases {
                #expect(html.contains("<button type=\"submit\" id=\"save-\(category.rawValue)\">Save \(Page.escape(category.displayName))</button>"))
            }
            #expect(html.components(separatedBy: "name=\"csrf\" value=\"\(session.csrf)\"").count - 1 == 5 + DataCategory.allCases.count)
        }
    }

    @Test func lockingIsShownBackAndAMessageIsShownEscaped() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let locked = try await WebFixture.post(client, "/settings/lock", session, "locked=1")
            #expect(locked.status == .seeOther)
            let id = web.routes.memory.hold(.init(ok: "<b>yes</b>"), session: session.id, now: DaemonClock.now().millis)
            let html = try await client.execute(uri: "/settings?notice=\(id)", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<p>Locked: nothing is read or sent.</p><input type=\"hidden\" name=\"locked\" value=\"0\"><button type=\"submit\">Unlock</button>"))
            #expect(html.contains("<p class=\"notice ok\" role=\"status\">&lt;b&gt;yes&lt;/b&gt;</p>"))
        }
    }

    @Test func aGlucoseUnitSavedIsCheckedAndTheReceivingServerIsShownEscaped() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try SettingsLoader.update(paths: try Configuration(environment: web.environment).paths,
                                  [("gateway.url", "https://gw.example/in?a=1&b=<x>")])
        try await web.app.test(.router) { client in
            let saved = try await WebFixture.post(client, "/settings/glucose", session, "unit=mg%2FdL")
            #expect(saved.status == .seeOther)
            let html = try await client.execute(uri: "/settings", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("value=\"mg/dL\" checked><label for=\"glucose-mg\">"))
            #expect(!html.contains("value=\"mmol/L\" checked"))
            #expect(html.contains("<p>Data is sent to https://gw.example/in?a=1&amp;b=&lt;x&gt;. Its password or key is never shown here.</p>"))
        }
    }
}

/// `/notes` and `/notes/ID/edit`.
@Suite struct NoteRouteTests {
    /// A year of notes is not one long page: the newest thirty, then "Show older notes" adds
    /// thirty more and lands on the first of them; the list ends without the link.
    @Test func theNewestThirtyNotesAreShownAndShowOlderNotesAddsThirtyMore() async throws {
        let web = try WebFixture()
        let journal = try web.healthJournal()
        let start = DaemonClock.now().millis - 40 * 86_400_000
        let notes = try (0..<35).map { i in
            try journal.addNote(text: "note \(i)", category: nil, audio: nil, now: Timestamp(millis: start + Int64(i) * 86_400_000))
        }
        let session = try web.session()
        try await web.app.test(.router) { client in
            let first = try await client.execute(uri: "/notes", method: .get, headers: WebFixture.headers(session)).text
            #expect(first.components(separatedBy: "<li class=\"note\"").count - 1 == 30)
            #expect(first.contains("<p>note 34</p>") && first.contains("<p>note 5</p>") && !first.contains("<p>note 4</p>"))
            #expect(first.contains("<p>The newest 30 of 35 notes are shown.</p>"))
            #expect(first.contains("<a class=\"button secondary\" id=\"more-notes\" href=\"/notes?shown=60#note-\(notes[4].id)\">Show older notes</a>"))
            let more = try await client.execute(uri: "/notes?shown=60", method: .get, headers: WebFixture.headers(session)).text
            #expect(more.components(separatedBy: "<li class=\"note\"").count - 1 == 35)
            #expect(more.contains("<li class=\"note\" id=\"note-\(notes[4].id)\"") && more.contains("<p>note 0</p>"))
            #expect(!more.contains("more-notes"))
        }
    }

    @Test func withoutASessionNotesAskToLogInAndAFormWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let n = try web.healthJournal().addNote(text: "x", category: nil, audio: nil, now: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            let list = try await client.execute(uri: "/notes", method: .get)
            #expect(list.status == .unauthorized)
            let edit = try await client.execute(uri: "/notes/\(n.id)/edit", method: .get)
            #expect(edit.status == .unauthorized)
            let add = try await WebFixture.post(client, "/notes/add", session, csrf: false, "text=y")
            #expect(add.status == .forbidden)
            let change = try await WebFixture.post(client, "/notes/edit", session, csrf: false, "id=\(n.id)&text=y")
            #expect(change.status == .forbidden)
            let delete = try await WebFixture.post(client, "/notes/delete", session, csrf: false, "id=\(n.id)")
            #expect(delete.status == .forbidden)
        }
        #expect(try web.healthJournal().note(n.id).text == "x")
    }

    @Test func noNotesYetShowsTheFormAndSaysSo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/notes", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<form method=\"post\" action=\"/notes/add\" id=\"note-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"))
            #expect(html.contains("<input id=\"f-category\" name=\"category\" type=\"text\" value=\"\(Note.defaultCategory)\" list=\"note-categories\" autocomplete=\"off\" aria-describedby=\"f-category-hint\">"))
            #expect(html.contains("<p>No notes yet.</p>"))
            #expect(!html.contains("aria-label=\"Note categories\""))
        }
    }

    @Test func aNoteSavedIsListedEscapedInItsCategoryWithChangeAndDelete() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let saved = try await WebFixture.post(client, "/notes/add", session, "category=Dr%20%3CKim%3E&text=Ask%20about%20%3Cb%3Epills%3C%2Fb%3E%20%26%20sleep")
            #expect(saved.status == .seeOther)
            let address = try #require(saved.headers[.location])
            let location = try #require(web.said(saved, session))
            #expect(location.contains("&undo="))
            let html = try await client.execute(uri: address, method: .get, headers: WebFixture.headers(session)).text
            let n = try #require(try web.healthJournal().notes(category: nil).first)
            #expect(html.contains("<p>Ask about &lt;b&gt;pills&lt;/b&gt; &amp; sleep</p>"))
            #expect(html.contains("<p class=\"meta\">\(Format.spoken(n.created)) · Dr &lt;Kim&gt;</p>"))
            #expect(html.contains("<option value=\"Dr &lt;Kim&gt;\"></option>"))
            #expect(html.contains("<li><a class=\"choice\" href=\"/notes?category=Dr%20%3CKim%3E\">Dr &lt;Kim&gt; (1)</a></li>"))
            #expect(html.contains("<a class=\"button secondary\" href=\"/notes/\(n.id)/edit\" aria-label=\"Change: the note of \(Format.spoken(n.created))\">Change</a>"))
            #expect(html.contains("<input type=\"hidden\" name=\"id\" value=\"\(n.id)\"><input type=\"hidden\" name=\"back\" value=\"/notes\">"))
            #expect(!html.contains("<b>pills"))
            let chosen = try await client.execute(uri: "/notes?category=Dr%20%3CKim%3E", method: .get, headers: WebFixture.headers(session)).text
            #expect(chosen.contains("aria-current=\"page\">Dr &lt;Kim&gt; (1)</a>"))
            #expect(chosen.contains("value=\"Dr &lt;Kim&gt;\" list=\"note-categories\""))
        }
    }

    @Test func theEditPageShowsTheNoteEscapedAndSavingChangesIt() async throws {
        let web = try WebFixture()
        let n = try web.healthJournal().addNote(text: "</textarea><b>x</b>", category: "a&b", audio: nil, now: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/notes/\(n.id)/edit", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<textarea id=\"f-text\" name=\"text\" rows=\"5\">&lt;/textarea&gt;&lt;b&gt;x&lt;/b&gt;</textarea>"))
            #expect(html.contains("<input id=\"f-category\" name=\"category\" type=\"text\" value=\"a&amp;b\" required autocomplete=\"off\">"))
            #expect(html.contains("<p>Not needed any more? Delete it. You can undo that.</p>"))
            let saved = try await WebFixture.post(client, "/notes/edit", session, "id=\(n.id)&category=a%26b&text=better")
            #expect(saved.status == .seeOther)
            #expect(try web.healthJournal().note(n.id).text == "better")
        }
    }

    @Test func theEditPageOfANoteThatIsNotThereSaysSoWithAWayBack() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/notes/999/edit", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<p class=\"notice error\" role=\"alert\">This note cannot be changed: it was deleted, or the address is not right.</p><p><a class=\"button\" href=\"/notes\">Back to the notes</a></p>"))
        }
    }
}

/// `/lifestyle` and `/lifestyle/ID/edit`.
@Suite struct LifestyleRouteTests {
    @Test func withoutASessionLifestyleAsksToLogInAndAFormWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let e = try web.journal().logLifestyle(LifestyleLog(factor: "coffee"))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let page = try await client.execute(uri: "/lifestyle", method: .get)
            #expect(page.status == .unauthorized)
            let edit = try await client.execute(uri: "/lifestyle/\(e.id)/edit", method: .get)
            #expect(edit.status == .unauthorized)
            let log = try await WebFixture.post(client, "/lifestyle/log", session, csrf: false, "factor=water")
            #expect(log.status == .forbidden)
            let change = try await WebFixture.post(client, "/lifestyle/edit", session, csrf: false, "id=\(e.id)&factor=tea")
            #expect(change.status == .forbidden)
            let delete = try await WebFixture.post(client, "/lifestyle/delete", session, csrf: false, "id=\(e.id)")
            #expect(delete.status == .forbidden)
        }
        #expect(try web.journal().lifestyleEntry(e.id.description).factor == "coffee")
    }

    @Test func anEmptyWeekShowsTheFormAndSaysNothingWasNoted() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/lifestyle", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<form method=\"post\" action=\"/lifestyle/log\" class=\"card\"><input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\">"))
            #expect(html.contains("<input type=\"radio\" id=\"factor-0\" name=\"factor\" value=\""))
            #expect(html.contains("<option value=\"\" selected>Not given</option><option value=\"none\">None</option>"))
            #expect(html.contains("<p>Nothing noted in the last 7 days.</p>"))
            #expect(!html.contains("autofocus"))
        }
    }

    @Test func anEntryLoggedIsListedEscapedWithChangeAndDelete() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let saved = try await WebFixture.post(client, "/lifestyle/log", session, "other=walk%20%3Cdog%3E&amount=2&unit=km&note=%22nice%22%20%26%20sunny")
            #expect(saved.status == .seeOther)
            let address = try #require(saved.headers[.location])
            let location = try #require(web.said(saved, session))
            let html = try await client.execute(uri: address, method: .get, headers: WebFixture.headers(session)).text
            let e = try #require(try web.journal().lifestyle(on: web.journal().today).first)
            let time = String(Format.local(e.at).suffix(5))
            #expect(html.contains("<h3>Today</h3><ul class=\"readings\"><li class=\"editable\" data-entry=\"\(e.id)\"><span class=\"what\">\(time) Walk &lt;dog&gt;: 2 km (\(e.timeOfDay.rawValue)) – &quot;nice&quot; &amp; sunny</span>"))
            #expect(html.contains("<a class=\"button secondary\" href=\"/lifestyle/\(e.id)/edit?back=/lifestyle\" aria-label=\"Change: walk &lt;dog&gt; at \(time)\">Change</a>"))
            #expect(!html.contains("<dog>"))
        }
    }

    @Test func whatIsNotANumberIsRefusedNextToItsFieldKeepingWhatWasTyped() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await WebFixture.post(client, "/lifestyle/log", session, "factor=water&amount=2%3Cb%3E&unit=cups")
            #expect(r.status.code == 422)
            let html = r.text
            #expect(html.contains("<p class=\"notice error\" role=\"alert\">It was not saved. See the message next to what needs changing.</p>"))
            #expect(html.contains("<input id=\"f-amount\" name=\"amount\" type=\"text\" value=\"2&lt;b&gt;\" autocomplete=\"off\" inputmode=\"decimal\" class=\"short\" aria-invalid=\"true\" autofocus aria-describedby=\"f-amount-error f-amount-hint\">"))
            #expect(html.contains("value=\"water\" checked>"))
            #expect(html.components(separatedBy: "autofocus").count == 2)
        }
    }

    @Test func theEditPageShowsTheEntryEscapedAndSavingChangesIt() async throws {
        let web = try WebFixture()
        let e = try web.journal().logLifestyle(LifestyleLog(factor: "tea <green>", measure: .level(.high), note: "</textarea>"))
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/lifestyle/\(e.id)/edit?back=/lifestyle", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<title>Change: tea &lt;green&gt; – Health journal</title>"))
            #expect(html.contains("<input id=\"f-factor\" name=\"factor\" type=\"text\" value=\"tea &lt;green&gt;\" required autocomplete=\"off\">"))
            #expect(html.contains("<option value=\"high\" selected>High</option>"))
            #expect(html.contains("<option value=\"\(e.timeOfDay.rawValue)\" selected>"))
            #expect(html.contains("<textarea id=\"f-note\" name=\"note\" rows=\"3\">&lt;/textarea&gt;</textarea>"))
            #expect(html.contains("<input type=\"hidden\" name=\"back\" value=\"/lifestyle\">"))
            let saved = try await WebFixture.post(client, "/lifestyle/edit", session, "id=\(e.id)&factor=tea&level=low&back=%2Flifestyle")
            #expect(saved.status == .seeOther)
            #expect(web.said(saved, session)?.hasPrefix("/lifestyle?ok=") == true)
            #expect(try web.journal().lifestyleEntry(e.id.description).factor == "tea")
        }
    }

    @Test func theEditPageOfAnEntryThatIsNotThereSaysSoWithAWayBack() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/lifestyle/999/edit?back=/journal", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<p class=\"notice error\" role=\"alert\">This entry cannot be changed: it was deleted, or the address is not right.</p><p><a class=\"button\" href=\"/journal\">Back</a></p>"))
        }
    }
}

/// `/report`, the doctor's summary.
@Suite struct ReportRouteTests {
    @Test func withoutASessionTheSummaryAsksToLogIn() async throws {
        let web = try WebFixture()
        try await web.app.test(.router) { client in
            let page = try await client.execute(uri: "/report", method: .get)
            #expect(page.status == .unauthorized)
        }
    }

    @Test func theLast30DaysAreShownWithTheQuickChoicesAndThePrintButton() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let now = DaemonClock.now()
        let reports = VisitReports(journal: try web.healthJournal())
        let period = reports.defaultPeriod(now: now)
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/report", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<li><a class=\"choice\" href=\"/report?days=30\">Last 30 days</a></li>"))
            #expect(html.contains("<input id=\"f-from\" name=\"from\" type=\"date\" value=\"\(period.from)\">"))
            #expect(html.contains("To keep it as a file, choose “Save as PDF” in the Print window.") && html.contains("<label for=\"f-name\">Your name on the summary</label>"))
            #expect(html.contains("<script src=\"\(WebAssets.path("report.js"))\" defer></script>"))
            #expect(html.contains("<link rel=\"stylesheet\" href=\"/report/page.css?from=\(period.from)&amp;to=\(period.to)\">"))
            #expect(html.contains("<p class=\"report-empty\">Nothing was recorded in this period.</p>"))
            #expect(!html.contains("id=\"f-since\""))
        }
    }

    @Test func noteCategoriesAndTheNameAreShownEscapedAndAnUnknownCategorySaysSo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        _ = try web.healthJournal().addNote(text: "Ask <why>", category: "Dr <Kim>", audio: nil, now: DaemonClock.now())
        try SettingsLoader.update(paths: try Configuration(environment: web.environment).paths, [("report.name", "Ann <b>& Co</b>")])
        try web.current.reread()   // as the daemon's reload does when a config file changes
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/report?days=91&questions=Dr%20%3CKim%3E", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<a class=\"choice\" href=\"/report?days=91&amp;questions=Dr%20%3CKim%3E\" aria-current=\"page\">Last 3 months</a>"))
            #expect(html.contains("<option value=\"Dr &lt;Kim&gt;\" selected>Dr &lt;Kim&gt;</option>"))
            #expect(html.contains("<input type=\"hidden\" name=\"questions\" value=\"Dr &lt;Kim&gt;\">"))
            #expect(html.contains("Ann &lt;b&gt;&amp; Co&lt;/b&gt;"))
            #expect(!html.contains("<b>& Co"))
            let unknown = try await client.execute(uri: "/report?since=%3Ci%3E", method: .get, headers: WebFixture.headers(session)).text
            #expect(unknown.contains("<p class=\"notice error\" role=\"alert\">There is no note in the category \u{201C}&lt;i&gt;\u{201D}: showing the last 30 days.</p>"))
        }
    }
}

/// `/import`, the page to drop an export on.
@Suite struct ImportRouteTests {
    @Test func withoutASessionImportAsksToLogInAndAnUploadWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let page = try await client.execute(uri: "/import", method: .get)
            #expect(page.status == .unauthorized)
            var headers = WebFixture.headers(session, form: true)
            headers[.contentType] = "application/octet-stream"
            headers[.init("X-File-Name")!] = "export.xml"
            let upload = try await client.execute(uri: "/import", method: .post, headers: headers, body: ByteBuffer(string: "<HealthData/>"))
            #expect(upload.status == .forbidden)
            #expect(upload.text.contains("This form has expired."))
        }
    }

    @Test func thePageTakesAFileUpToTheLimitAndNamesTheSpoolFolder() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let ctx = try Configuration(environment: web.environment)
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/import", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<div class=\"drop\" id=\"drop\" data-max-bytes=\"\(Int64(ctx.settings.webUploadMaxMB) << 20)\">"))
            #expect(html.contains("Files up to 2 GB."))   // web.upload_max_mb 2048, as a person says it
            #expect(html.contains("save the file to the folder \(Page.escape(ctx.spool.path)) instead"))
            #expect(html.contains("<script src=\"\(WebAssets.path("days.js"))\" defer></script>"))
        }
    }
}

/// The heart-rate curve of the day view (`heart-curve.mustache` over `HeartCurve`).
@Suite struct HeartCurveRouteTests {
    @Test func aDayWithHeartRateReadingsDrawsItsCurveWithTheHoursAndAPointPerQuarterHour() async throws {
        let web = try WebFixture()
        let journal = try web.healthJournal()
        let day = CivilDate(year: 2026, month: 1, day: 15)
        for (hour, minute, bpm) in [(8, 0, 60.0), (8, 20, 80.0), (12, 0, 100.0)] {
            _ = try journal.measure(.heartRate(bpm), at: LocalDay.timestamp(day, hour: hour, minute: minute, in: journal.zone), now: DaemonClock.now())
        }
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/day/2026-01-15", method: .get, headers: WebFixture.headers(session)).text
            #expect(html.contains("<svg role=\"img\" aria-labelledby=\"hr-title\" viewBox=\"0 0 720 250\" width=\"100%\" class=\"curve\"><title id=\"hr-title\">Heart rate through the day: lowest 60, average "))
            #expect(html.contains(", highest 100 beats per minute</title><line x1=\"66\" x2=\"712\" y1=\""))
            #expect(html.contains("<text x=\"66\" y=\"244\" text-anchor=\"start\" fill=\"#1a1a1a\" class=\"edge\">00:00</text>"))
            #expect(html.contains("text-anchor=\"end\" fill=\"#1a1a1a\" class=\"edge\">24:00</text>"))
            let line = try #require(html.components(separatedBy: "<polyline points=\"").dropFirst().first?.prefix { $0 != "\"" })
            #expect(line.split(separator: " ").count == 3)
            #expect(html.contains("</polyline></svg>"))
        }
    }
}

/// The bars of the sending page (`bars.mustache` over `BarChart`).
@Suite struct BarChartRouteTests {
    @Test func theKindsWaitingToBeSentAreDrawnAsBarsWithTheirCounts() async throws {
        let web = try WebFixture()
        for symptom in ["Headache", "Nausea", "Headache"] { _ = try web.journal().logSymptom(SymptomLog(symptom: symptom, severity: .mild)) }
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/sync", method: .get, headers: WebFixture.headers(session)).text
            let svg = try #require(html.components(separatedBy: "<svg role=\"img\" aria-labelledby=\"chart-title\"").dropFirst().first?
                .components(separatedBy: "</svg>").first)
            #expect(svg.hasPrefix(" viewBox=\"0 0 340 "))
            #expect(svg.contains("<title id=\"chart-title\">Entries waiting to be sent, by kind</title><text x=\"0\" y=\"16\" fill=\"#1a1a1a\">"))
            #expect(svg.contains("<rect x=\"0\" y=\"22\" width=\""))
            #expect(svg.components(separatedBy: "<rect ").count - 1 == html.components(separatedBy: "<tr><td>").count - 1)
        }
    }

    @Test func aBarsLabelAndValueAreWrittenAsTextEscaped() {
        let chart = BarChart([("<b>Steps</b> & more", 10), ("Sleep", 5)], label: "Kinds \"waiting\"", valueText: { "\($0) <i>" })
        let svg = WebTemplates.render(chart, .bars)
        #expect(svg.contains("<title id=\"chart-title\">Kinds &quot;waiting&quot;</title>"))
        #expect(svg.contains("<text x=\"0\" y=\"16\" fill=\"#1a1a1a\">&lt;b&gt;Steps&lt;/b&gt; &amp; more</text><rect x=\"0\" y=\"22\" width=\"270\" height=\"18\" fill=\"#14365c\"></rect><text x=\"276\" y=\"37\" fill=\"#1a1a1a\">10 &lt;i&gt;</text>"))
        #expect(svg.contains("<rect x=\"0\" y=\"70\" width=\"135\" height=\"18\""))
        #expect(svg.contains("viewBox=\"0 0 340 100\""))
    }
}

/// The measurement charts (`trend.mustache` over `MeasureCharts.Trend`).
@Suite struct TrendChartRouteTests {
    @Test func twoBloodPressureReadingsAreDrawnAsDotsAndSquaresJoinedByALineEach() async throws {
        let web = try WebFixture()
        let journal = try web.healthJournal()
        let now = DaemonClock.now()
        for (ago, systolic, diastolic) in [(2 * 86_400_000 as Int64, 128.0, 82.0), (3_600_000, 135.0, 88.0)] {
            _ = try journal.measure(.bloodPressure(systolic: systolic, diastolic: diastolic), at: Timestamp(millis: now.millis - ago), now: now)
        }
        _ = try journal.measure(.heartRate(61), at: Timestamp(millis: now.millis - 60_000), now: now)
        let session = try web.session()
        try await web.app.test(.router) { client in
            let html = try await client.execute(uri: "/measure", method: .get, headers: WebFixture.headers(session)).text
            let bp = try #require(html.components(separatedBy: "<h3 id=\"chart-bloodPressure-h\">Blood pressure</h3>").dropFirst().first?
                .components(separatedBy: "<h3").first)
            #expect(bp.hasPrefix("<svg role=\"img\" aria-labelledby=\"chart-bloodPressure-title\" viewBox=\"0 0 360 220\" class=\"trend\" id=\"chart-bloodPressure\"><title id=\"chart-bloodPressure-title\">Blood pressure, last 30 days: 2 readings, latest 135/88 mmHg on "))
            #expect(bp.components(separatedBy: "<rect class=\"band\" x=\"52\"").count - 1 == 2)
            #expect(bp.components(separatedBy: "<polyline points=\"").count - 1 == 2)
            #expect(bp.components(separatedBy: "r=\"5\" fill=\"#14365c\"></circle>").count - 1 == 2)
            #expect(bp.components(separatedBy: "width=\"10\" height=\"10\" fill=\"#a13d00\"></rect>").count - 1 == 2)
            #expect(bp.contains("</svg><p class=\"hint\">Dots: the top number. Squares: the bottom number.</p><p class=\"hint\">Shaded: the usual ranges"))
            let hr = try #require(html.components(separatedBy: "<h3 id=\"chart-heartRate-h\">Heart rate</h3>").dropFirst().first?
                .components(separatedBy: "<h3").first)
            #expect(hr.contains("r=\"5\" fill=\"#14365c\"></circle></svg><p class=\"hint\">Shaded: the usual resting heart rate"))
            #expect(!hr.contains("<polyline"))
            #expect(html.contains("<h3 id=\"chart-weight-h\">Weight</h3><p>No readings in the last 30 days.</p>"))
        }
    }
}

/// A deleted note's recording is kept at least as long as the note's Undo is offered.
@Suite struct NoteUndoWindowTests {
    @Test func theRecordingOutlivesTheUndoOffer() {
        #expect(SessionMemory.lifetimeMillis <= NoteRecordings.keptAsideMillis)
    }
}
