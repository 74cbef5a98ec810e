import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
import Logging
import Testing
@testable import HealthSpoolWeb

/// The routes the other route tests did not request, one test each: the status, the session it
/// needs (401 without one), the CSRF token a post needs (403 without it or with a wrong one, and
/// nothing changed), and what the route does.
extension WebFixture {
    /// `body` posted to `uri` without a session, without the CSRF token and with a wrong one:
    /// 401, 403, 403.
    static func expectRefused(_ client: some TestClientProtocol, _ uri: String, _ session: WebSessions.Session, _ body: String,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await post(client, uri, nil, body).status == .unauthorized, "\(uri) without a session", sourceLocation: sourceLocation)
        #expect(try await post(client, uri, session, csrf: false, body).status == .forbidden, "\(uri) without the token", sourceLocation: sourceLocation)
        let wrong = try await client.execute(uri: uri, method: .post, headers: headers(session, form: true),
                                             body: ByteBuffer(string: "csrf=\(String(repeating: "0", count: session.csrf.count))&" + body))
        #expect(wrong.status == .forbidden, "\(uri) with a wrong token", sourceLocation: sourceLocation)
    }

    /// The headers of a post of `type` (not a form) in `session`, with `csrf` as its `X-CSRF-Token`.
    static func headers(_ session: WebSessions.Session?, type: String, csrf: String?) -> HTTPFields {
        var h = headers(session)
        h[.origin] = "http://localhost"
        h[.contentType] = type
        if let csrf { h[.init("X-CSRF-Token")!] = csrf }
        return h
    }

    /// The configuration of this home as it is now (after the settings forms wrote it).
    func configuration() throws -> Configuration { try Configuration(environment: environment) }
}

/// `/login` and `/logout`.
@Suite struct LoginRouteTests {
    @Test func aLoginLinkOpensASessionOnceAndAnotherLinkIsRefused() async throws {
        let web = try WebFixture()
        let link = LoginLink.make(secret: web.secret, now: DaemonClock.now())
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/login?token=\(link.token)", method: .get)
            #expect(r.status == .seeOther)
            #expect(r.headers[.location] == "/")
            let cookie = try #require(r.headers[.setCookie])
            #expect(cookie.hasPrefix("hs_session=") && cookie.contains("; HttpOnly; SameSite=Strict"))
            let id = String(cookie.dropFirst("hs_session=".count).prefix { $0 != ";" })
            let home = try await client.execute(uri: "/", method: .get, headers: [.cookie: "hs_session=\(id)"])
            #expect(home.status == .ok)

            let again = try await client.execute(uri: "/login?token=\(link.token)", method: .get)
            #expect(again.status == .unauthorized)
            #expect(again.headers[.setCookie] == nil)
            #expect(again.text.contains("This link has expired"))
            let forged = try await client.execute(uri: "/login?token=1.2.3", method: .get)
            #expect(forged.status == .unauthorized)
        }
    }

    @Test func loggingOutEndsTheSessionAndNeedsTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/logout", session, "")
            #expect(try await client.execute(uri: "/", method: .get, headers: WebFixture.headers(session)).status == .ok)

            let out = try await WebFixture.post(client, "/logout", session, "")
            #expect(out.status == .ok)
            #expect(out.headers[.setCookie] == "hs_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
            #expect(out.text.contains("You are logged out."))
            #expect(try await client.execute(uri: "/", method: .get, headers: WebFixture.headers(session)).status == .unauthorized)
        }
    }
}

/// `/undo`: the Undo button of a confirmation.
@Suite struct UndoRouteTests {
    @Test func undoPutsADeletedNoteBackOnceAndNeedsTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let n = try web.healthJournal().addNote(text: "Ask about sleep", category: nil, audio: nil, now: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            let deleted = try await WebFixture.post(client, "/notes/delete", session, "id=\(n.id)")
            let location = try #require(web.said(deleted, session))
            let token = try #require(location.components(separatedBy: "&undo=").last)
            #expect(try web.healthJournal().notes(category: nil).isEmpty)

            try await WebFixture.expectRefused(client, "/undo", session, "undo=\(token)&back=/notes")
            #expect(try web.healthJournal().notes(category: nil).isEmpty)

            let undone = try await WebFixture.post(client, "/undo", session, "undo=\(token)&back=/notes")
            #expect(undone.status == .seeOther)
            #expect(web.said(undone, session)?.hasPrefix("/notes?ok=") == true)
            #expect(try web.healthJournal().notes(category: nil).map(\.text) == ["Ask about sleep"])

            let twice = try await WebFixture.post(client, "/undo", session, "undo=\(token)&back=/notes")
            #expect(web.said(twice, session) == "/notes?error="
                    + Page.percentEncode("There is nothing to undo here any more: it was undone already, or it is too long ago."))
            #expect(try web.healthJournal().notes(category: nil).count == 1)
        }
    }
}

/// `/doses/edit` and `/doses/delete`: a dose taken, its time changed, then deleted.
@Suite struct DoseRouteTests {
    @Test func aDoseIsRetimedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let journal = try web.records()
        let med = try journal.addMedication(Medication(name: "Ibuprofen"), now: DaemonClock.now())
        let (dose, _) = try journal.takeDose(String(med.id), at: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/doses/edit", session, "id=\(dose.id)&time=00%3A01&back=/meds")
            #expect(try web.records().dose(id: dose.id).takenAt == dose.takenAt)

            let r = try await WebFixture.post(client, "/doses/edit", session, "id=\(dose.id)&time=00%3A01&back=/meds")
            #expect(r.status == .seeOther)
            let location = try #require(web.said(r, session))
            #expect(location.hasPrefix("/meds?ok=" + Page.percentEncode("Changed: Ibuprofen taken at 00:01.") + "&undo="))
            let moved = try web.records().dose(id: dose.id)
            #expect(try web.records().local(moved.takenAt).iso8601Local.dropFirst(11).prefix(5) == "00:01")
        }
    }

    @Test func aDoseIsDeletedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let journal = try web.records()
        let med = try journal.addMedication(Medication(name: "Ibuprofen"), now: DaemonClock.now())
        let (dose, _) = try journal.takeDose(String(med.id), at: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/doses/delete", session, "id=\(dose.id)&back=/")
            #expect(try web.records().doses(on: nil).count == 1)

            let r = try await WebFixture.post(client, "/doses/delete", session, "id=\(dose.id)&back=/")
            #expect(r.status == .seeOther)
            let location = try #require(web.said(r, session))
            #expect(location.hasPrefix("/?ok=" + Page.percentEncode("Deleted: Ibuprofen at ")))
            #expect(location.contains("&undo="))
            #expect(try web.records().doses(on: nil).isEmpty)
        }
    }
}

/// The settings forms not covered by `SettingsRouteTests`.
@Suite struct SettingsFormRouteTests {
    @Test func howOftenDataIsSentIsSavedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/settings/frequency", session, "frequency=daily")
            #expect(try web.configuration().settings.syncFrequency == .realtime)
            let r = try await WebFixture.post(client, "/settings/frequency", session, "frequency=daily")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session) == "/settings?ok=" + Page.percentEncode("Saved how often data is sent."))
            #expect(try web.configuration().settings.syncFrequency == .daily)
        }
    }

    @Test func deletingExportsAfterImportIsSavedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/settings/after-import", session, "after=delete")
            #expect(try web.configuration().settings.afterImport == .archive)
            let r = try await WebFixture.post(client, "/settings/after-import", session, "after=delete")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/settings?ok=" + Page.percentEncode("Exports are now deleted as soon as their data is stored.")) == true)
            #expect(try web.configuration().settings.afterImport == .delete)
        }
    }

    @Test func aCategoryWithEveryKindUncheckedStopsSendingThemOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let types = DataCategory.cardiovascular.dataTypes.map(\.name)
        try #require(!types.isEmpty)
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/settings/types", session, "category=cardiovascular")
            #expect(try types.allSatisfy { try web.configuration().settings.isEnabled($0) })
            let r = try await WebFixture.post(client, "/settings/types", session, "category=cardiovascular")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session) == "/settings?ok=" + Page.percentEncode("Saved \(DataCategory.cardiovascular.displayName)."))
            let settings = try web.configuration().settings
            #expect(types.allSatisfy { !settings.isEnabled($0) })
            #expect(settings.isEnabled(DataCategory.activity.dataTypes[0].name))
        }
    }

    @Test func testingTheConnectionWithoutAServerSaysNoneIsSetOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/settings/gateway/test", session, "")
            let r = try await WebFixture.post(client, "/settings/gateway/test", session, "")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session) == "/settings?error=" + Page.percentEncode("No receiving server is set."))
        }
    }
}

/// The deletes and removes whose other tests only check the CSRF refusal, and `/reminders/add`.
@Suite struct RemoveRouteTests {
    @Test func aNoteIsDeletedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let n = try web.healthJournal().addNote(text: "x", category: nil, audio: nil, now: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/notes/delete", session, "id=\(n.id)")
            #expect(try web.healthJournal().notes(category: nil).count == 1)
            let r = try await WebFixture.post(client, "/notes/delete", session, "id=\(n.id)")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/notes?ok=Note%20deleted.&undo=") == true)
            #expect(try web.healthJournal().notes(category: nil).isEmpty)
        }
    }

    @Test func aLifestyleEntryIsDeletedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let e = try web.journal().logLifestyle(LifestyleLog(factor: "coffee"))
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/lifestyle/delete", session, "id=\(e.id)&back=/lifestyle")
            #expect(try web.journal().lifestyleEntry(e.id.description).deleted == false)
            let r = try await WebFixture.post(client, "/lifestyle/delete", session, "id=\(e.id)&back=/lifestyle")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/lifestyle?ok=" + Page.percentEncode("Deleted: coffee.") + "&undo=") == true)
            #expect((try? web.journal().lifestyleEntry(e.id.description))?.deleted != false)
        }
    }

    @Test func aReminderIsAddedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let form = "name=Pills&time=08%3A00&repeat=daily&start=2026-01-05"
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/reminders/add", session, form)
            #expect(try web.records().reminders().isEmpty)
            let r = try await WebFixture.post(client, "/reminders/add", session, form)
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/reminders?ok=" + Page.percentEncode("Reminder set: Pills.")) == true)
            let added = try #require(try web.records().reminders().first)
            #expect(added.name == "Pills")
            #expect(added.times == [TimeOfDay(hour: 8, minute: 0)!])
        }
    }

    @Test func aReminderIsRemovedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let r = try web.records().addReminder(name: "Pills", kind: nil, times: [TimeOfDay(hour: 8, minute: 0)!], rule: RecurrenceRule(.daily),
                                              start: CivilDate(year: 2026, month: 1, day: 5), medication: nil, now: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/reminders/remove", session, "id=\(r.id)")
            #expect(try web.records().reminders().count == 1)
            let removed = try await WebFixture.post(client, "/reminders/remove", session, "id=\(r.id)")
            #expect(removed.status == .seeOther)
            #expect(web.said(removed, session)?.hasPrefix("/reminders?ok=" + Page.percentEncode("Removed: Pills.") + "&undo=") == true)
            #expect(try web.records().reminders().isEmpty)
        }
    }

    @Test func aMedicationIsRemovedWithItsDosesOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let journal = try web.records()
        let med = try journal.addMedication(Medication(name: "Ibuprofen"), now: DaemonClock.now())
        _ = try journal.takeDose(String(med.id), at: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            try await WebFixture.expectRefused(client, "/meds/remove", session, "id=\(med.id)")
            #expect(try web.records().medications().count == 1)
            let r = try await WebFixture.post(client, "/meds/remove", session, "id=\(med.id)")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/meds?ok=" + Page.percentEncode("Removed: Ibuprofen and its logged doses.") + "&undo=") == true)
            #expect(try web.records().medications().isEmpty)
            #expect(try web.records().doses(on: nil).isEmpty)
        }
    }

    @Test func aMeasurementIsDeletedOnlyWithTheSessionAndTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let key = try await MeasureEditRouteTests.bloodPressure(client, session)
            try await WebFixture.expectRefused(client, "/measure/delete", session, "key=\(key)")
            #expect(try await client.execute(uri: "/measure", method: .get, headers: WebFixture.headers(session)).text.contains("data-reading=\"\(key)\""))
            let r = try await WebFixture.post(client, "/measure/delete", session, "key=\(key)")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/measure?ok=" + Page.percentEncode("Deleted: blood pressure 182/82 mmHg of ")) == true)
            #expect(!(try await client.execute(uri: "/measure", method: .get, headers: WebFixture.headers(session)).text.contains("data-reading=\"\(key)\"")))
        }
    }
}

/// A note with a recording: `/notes/audio` saves it, `/notes/ID/audio` plays it back.
@Suite struct NoteAudioRouteTests {
    let recording: [UInt8] = Array("OggS recording".utf8)

    @Test func aRecordingIsSavedOnlyWithTheSessionAndTheCSRFTokenHeader() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let uri = "/notes/audio?text=Ask%20Dr%20Kim&category=Cardiology"
            let none = try await client.execute(uri: uri, method: .post, headers: WebFixture.headers(nil, type: "audio/ogg", csrf: session.csrf),
                                                body: ByteBuffer(bytes: recording))
            #expect(none.status == .unauthorized)
            for csrf in [nil, String(repeating: "0", count: session.csrf.count)] {
                let refused = try await client.execute(uri: uri, method: .post, headers: WebFixture.headers(session, type: "audio/ogg", csrf: csrf),
                                                       body: ByteBuffer(bytes: recording))
                #expect(refused.status == .forbidden)
            }
            #expect(try web.healthJournal().notes(category: nil).isEmpty)

            let saved = try await client.execute(uri: uri, method: .post, headers: WebFixture.headers(session, type: "audio/ogg", csrf: session.csrf),
                                                 body: ByteBuffer(bytes: recording))
            #expect(saved.status == .ok)
            let location = try #require(saved.text.components(separatedBy: "\"location\":\"").last?.components(separatedBy: "\"").first)
            #expect(web.said(location, session)?.hasPrefix("/notes?ok=" + Page.percentEncode("Note with recording saved in Cardiology.") + "&undo=") == true)
            let n = try #require(try web.healthJournal().notes(category: nil).first)
            #expect(n.text == "Ask Dr Kim")
            let path = try #require(try web.healthJournal().audioPath(n))
            #expect(try FileSystem.read(path, limit: 1 << 20) == recording)
        }
    }

    @Test func aRecordingIsPlayedBackWithItsTypeOnlyWithTheSession() async throws {
        let web = try WebFixture()
        let file = web.dir + "/recording.ogg"
        try FileSystem.writeAtomically(file, recording, mode: 0o600)
        let n = try web.healthJournal().addNote(text: "", category: nil, audio: file, now: DaemonClock.now())
        let session = try web.session()
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/notes/\(n.id)/audio", method: .get).status == .unauthorized)
            let r = try await client.execute(uri: "/notes/\(n.id)/audio", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "audio/ogg")
            #expect(r.headers[.cacheControl] == "private, no-store")
            #expect(Array(buffer: r.body) == recording)
            let none = try await client.execute(uri: "/notes/999/audio", method: .get, headers: WebFixture.headers(session))
            #expect(none.status == .notFound)
        }
    }
}

/// The report's style sheets, `/static/report.css` and `/report/page.css`.
@Suite struct ReportStyleRouteTests {
    @Test func theReportsStyleSheetIsServedCachedOnlyWithTheSession() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/static/report.css", method: .get).status == .unauthorized)
            let r = try await client.execute(uri: "/static/report.css", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "text/css; charset=utf-8")
            #expect(r.headers[.cacheControl] == "max-age=3600")
            #expect(r.text == ReportFile.css)
        }
    }

    @Test func thePrintedPagesHeaderNamesThePeriodOnlyWithTheSessionAndRefusesOtherDates() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let uri = "/report/page.css?from=2026-01-01&to=2026-01-31"
            #expect(try await client.execute(uri: uri, method: .get).status == .unauthorized)
            let r = try await client.execute(uri: uri, method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "text/css; charset=utf-8")
            #expect(r.text.hasPrefix("@page{@top-left{content:\"Health summary 1 Jan 2026 to 31 Jan 2026\";"))
            let bad = try await client.execute(uri: "/report/page.css?from=2026-01-01&to=%22%7D", method: .get, headers: WebFixture.headers(session))
            #expect(bad.status == .badRequest)
            #expect(bad.text.isEmpty)
        }
    }
}

/// `/sync/events`, the progress of Sync now (`POST /sync`), and `/import/status`.
@Suite struct ProgressRouteTests {
    @Test func syncNowWithoutTheServiceEndsAtOnceSayingItIsNotRunning() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/sync/events", method: .get).status == .unauthorized)
            let none = try await client.execute(uri: "/sync", method: .post, headers: WebFixture.headers(nil, type: "text/plain", csrf: session.csrf))
            #expect(none.status == .unauthorized)
            let wrong = try await client.execute(uri: "/sync", method: .post,
                                                 headers: WebFixture.headers(session, type: "text/plain", csrf: String(repeating: "0", count: session.csrf.count)))
            #expect(wrong.status == .forbidden)
            #expect(web.routes.sync.snapshot.message == "Not started.")

            let start = try await client.execute(uri: "/sync", method: .post, headers: WebFixture.headers(session, type: "text/plain", csrf: session.csrf))
            #expect(start.status == .accepted)
            let r = try await client.execute(uri: "/sync/events", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "text/event-stream")
            #expect(r.headers[.cacheControl] == "no-store")
            #expect(r.text.hasSuffix("data: {\"percent\":0,\"message\":\"The background service is not running. Start it, then try again.\",\"done\":true}\n\n"))
        }
    }

    @Test func anImportsStatusSaysWaitingThenFailedWithTheReasonOnlyWithTheSession() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let spool = try web.configuration().spool
        try FileSystem.makeDirectory(spool.path, mode: 0o700)
        try FileSystem.writeAtomically(spool.path + "/export.xml", Array("<HealthData/>".utf8), mode: 0o600)
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/import/status?file=export.xml", method: .get).status == .unauthorized)
            let waiting = try await client.execute(uri: "/import/status?file=export.xml", method: .get, headers: WebFixture.headers(session))
            #expect(waiting.status == .ok)
            #expect(waiting.headers[.contentType] == "application/json")
            #expect(waiting.text == "{\"file\":\"export.xml\",\"state\":\"waiting\",\"text\":\"export.xml is waiting to be read…\"}")

            try FileSystem.remove(spool.path + "/export.xml")
            try FileSystem.makeDirectory(spool.failed, mode: 0o700)
            try FileSystem.writeAtomically(spool.failed + "/export.xml", Array("<HealthData/>".utf8), mode: 0o600)
            try FileSystem.writeAtomically(spool.failed + "/export.xml.reason", Array("no records in it\n".utf8), mode: 0o600)
            let failed = try await client.execute(uri: "/import/status?file=export.xml", method: .get, headers: WebFixture.headers(session))
            #expect(failed.text.contains("\"state\":\"failed\",\"text\":\"export.xml could not be imported: no records in it\""))
        }
    }

    @Test func aFinishedImportsStatusSaysWhatItAddedFromTheStoresRecord() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let ctx = try web.configuration()
        let file = web.dir + "/export.json"
        try FileSystem.writeAtomically(file, Array(#"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"}]"#.utf8), mode: 0o600)
        _ = DirectImport(store: try .connect(to: ctx), settings: ctx.settings, controlSocket: ctx.controlSocket, logger: Logger(label: "test"))
            .importFile(path: file, name: "export.json")
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/import/status?file=export.json", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            #expect(r.text.contains("\"state\":\"done\",\"text\":\"Imported export.json: 1 new, 0 already known, 0 revised, 0 skipped. See them under Days.\""))
            #expect(r.text.contains("\"new\":1,"))
        }
    }
}

/// `/metrics`: the daemon's counters for a scraper with the token, no session needed.
@Suite struct MetricsRouteTests {
    @Test func theCountersNeedTheTokenNotASession() async throws {
        let web = try WebFixture()
        let token = String(repeating: "ab", count: 32)
        var routes = try WebRoutes(configuration: web.current, address: "localhost", port: 80, secret: web.secret)
        routes.metrics = DaemonMetrics(storePath: try web.configuration().storePath, started: DaemonClock.now())
        routes.metricsToken = token
        try await Application(router: routes.router()).test(.router) { client in
            let none = try await client.execute(uri: "/metrics", method: .get)
            #expect(none.status == .unauthorized)
            #expect(none.headers[.wwwAuthenticate] == "Bearer realm=\"healthspool\"")
            let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer " + String(repeating: "cd", count: 32)])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.headers[.wwwAuthenticate] == "Bearer realm=\"healthspool\", error=\"invalid_token\"")

            let r = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer " + token])
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == PrometheusText.contentType)
            #expect(r.text.contains("healthspool_build_info"))
            #expect(r.text.contains("healthspool_start_time_seconds"))
        }
    }
}
