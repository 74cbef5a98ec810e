import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird
import Testing
@testable import HealthSpoolWeb

extension WebFixture {
    /// The medications, reminders and goals of this home, to put records in the store the pages read.
    func records() throws -> HealthJournal { try HealthJournal(context: try Configuration(environment: environment)) }
}

/// `/reminders` and `/reminders/edit`: the list with each rule in words, and the add and change
/// forms with every repeat rule.
@Suite struct ReminderRouteTests {
    @Test func withoutASessionTheRemindersAskToLogInAndAPostWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/reminders", method: .get).status == .unauthorized)
            #expect(try await client.execute(uri: "/reminders/edit?id=1", method: .get).status == .unauthorized)
            for path in ["/reminders/add", "/reminders/edit", "/reminders/remove"] {
                let refused = try await client.execute(uri: path, method: .post, headers: WebFixture.headers(session, form: true),
                                                       body: ByteBuffer(string: "id=1&name=Pills&time=08%3A00&repeat=daily&start=2026-01-05"))
                #expect(refused.status == .forbidden, "\(path)")
            }
            #expect(try web.records().reminders().isEmpty)
        }
    }

    @Test func aReminderIsListedEscapedWithItsRuleInWordsAndItsChangeFormHoldsItsRule() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let journal = try web.records()
        let med = try journal.addMedication(Medication(name: "Ibu<profen>"), now: DaemonClock.now())
        let r = try journal.addReminder(name: "Pills & <b>water</b>", kind: nil, times: [TimeOfDay(hour: 8, minute: 0)!],
                                        rule: RecurrenceRule(.daily, interval: 2), start: CivilDate(year: 2026, month: 1, day: 5),
                                        medication: String(med.id), now: DaemonClock.now())
        try await web.app.test(.router) { client in
            let list = try await client.execute(uri: "/reminders", method: .get, headers: WebFixture.headers(session))
            #expect(list.status == .ok)
            var html = list.text
            #expect(html.contains("<title>Reminders – Health journal</title>"))
            #expect(html.contains("<li class=\"entry\" id=\"reminder-\(r.id)\"><div class=\"what\"><strong>Pills &amp; &lt;b&gt;water&lt;/b&gt;</strong>"
                                  + " <span class=\"for\">(for Ibu&lt;profen&gt;)</span><br><span class=\"rule\">Every other day at 08:00</span>"))
            #expect(html.contains("aria-label=\"Remove reminder Pills &amp; &lt;b&gt;water&lt;/b&gt;\">Remove</button>"))
            #expect(html.contains("<input type=\"radio\" id=\"repeat-daily\" name=\"repeat\" value=\"daily\" checked>"))
            #expect(!html.contains("repeat-once"))
            #expect(html.contains("<option value=\"\(med.id)\">Ibu&lt;profen&gt;</option>"))

            let edit = try await client.execute(uri: "/reminders/edit?id=\(r.id)", method: .get, headers: WebFixture.headers(session))
            #expect(edit.status == .ok)
            html = edit.text
            #expect(html.contains("<input type=\"hidden\" name=\"id\" value=\"\(r.id)\">"))
            #expect(html.contains("<input id=\"f-name\" name=\"name\" type=\"text\" value=\"Pills &amp; &lt;b&gt;water&lt;/b&gt;\" required"))
            #expect(html.contains("<input type=\"radio\" id=\"repeat-days\" name=\"repeat\" value=\"days\" checked>"))
            #expect(html.contains("<input id=\"f-every_days\" name=\"every_days\" type=\"text\" value=\"2\""))
            #expect(html.contains("<input id=\"f-start\" name=\"start\" type=\"date\" value=\"2026-01-05\" required"))
            #expect(html.contains("<option value=\"\(med.id)\" selected>Ibu&lt;profen&gt;</option>"))

            let gone = try await client.execute(uri: "/reminders/edit?id=999", method: .get, headers: WebFixture.headers(session))
            #expect(gone.text.contains("<p>This reminder is not there any more.</p>"))
        }
    }

    @Test func aChangeWithMistakesComesBackMarkedAndKeptAndAGoodOneOffersUndo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let r = try web.records().addReminder(name: "Pills", kind: nil, times: [TimeOfDay(hour: 8, minute: 0)!], rule: RecurrenceRule(.daily),
                                              start: CivilDate(year: 2026, month: 1, day: 5), medication: nil, now: DaemonClock.now())
        try await web.app.test(.router) { client in
            let bad = try await client.execute(uri: "/reminders/edit", method: .post, headers: WebFixture.headers(session, form: true),
                                               body: ByteBuffer(string: "csrf=\(session.csrf)&id=\(r.id)&name=%3Ci%3E&time=8x&repeat=weeks&every_weeks=1&start=2026-01-05"))
            #expect(bad.status == .unprocessableContent)
            let html = bad.text
            #expect(html.contains("<p class=\"notice error\" role=\"alert\">The reminder was not changed. See the message next to what needs changing.</p>"))
            #expect(html.contains("<p class=\"error\" id=\"f-time-error\">Type the time as hours and minutes, for example 08:00.</p>"
                                  + "<input id=\"f-time\" name=\"time\" type=\"text\" value=\"8x\" required autocomplete=\"off\" class=\"short\" aria-invalid=\"true\" autofocus"))
            #expect(html.contains("<p class=\"error\" id=\"weekday-error\">Choose at least one day of the week.</p>"))
            #expect(html.contains("name=\"weekday\" value=\"MO\" aria-invalid=\"true\" aria-describedby=\"weekday-error\">"))
            #expect(html.contains("value=\"&lt;i&gt;\""))

            let good = try await client.execute(uri: "/reminders/edit", method: .post, headers: WebFixture.headers(session, form: true),
                                                body: ByteBuffer(string: "csrf=\(session.csrf)&id=\(r.id)&name=Stretch&time=09%3A30&repeat=weeks"
                                                                 + "&weekday=MO&weekday=TH&every_weeks=2&start=2026-01-05"))
            #expect(good.status == .seeOther)
            #expect(web.said(good, session)?.contains("&undo=") == true)
            let rule = try web.records().reminder(r.id).rule
            #expect((rule.frequency, rule.interval, Set(rule.weekdays)) == (.weekly, 2, [.monday, .thursday]))
        }
    }

    @Test func theTickedDaysAndTypedNumbersStayOnTheFormWhenItComesBackWithAMistake() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let bad = try await client.execute(uri: "/reminders/add", method: .post, headers: WebFixture.headers(session, form: true),
                                               body: ByteBuffer(string: "csrf=\(session.csrf)&name=Physio&time=17%3A3o&repeat=weeks&weekday=MO"
                                                                + "&weekday=FR&every_weeks=2&start=2026-01-05"))
            #expect(bad.status == .unprocessableContent)
            let html = bad.text
            #expect(html.contains("<p class=\"error\" id=\"f-time-error\">Type the time as hours and minutes, for example 08:00.</p>"))
            #expect(html.contains("name=\"time\" type=\"text\" value=\"17:3o\""))
            #expect(html.contains("name=\"weekday\" value=\"MO\" checked>"))
            #expect(html.contains("name=\"weekday\" value=\"FR\" checked>"))
            #expect(html.contains("name=\"weekday\" value=\"TU\">"))
            #expect(html.contains("name=\"every_weeks\" type=\"text\" value=\"2\""))
            #expect(try web.records().reminders().isEmpty)
        }
    }
}

/// `/goals`: every goal with how often it applies, Remove, and the add form.
@Suite struct GoalRouteTests {
    @Test func withoutASessionTheGoalsAskToLogInAndAPostWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/goals", method: .get).status == .unauthorized)
            for path in ["/goals/add", "/goals/remove", "/goals/done"] {
                let refused = try await client.execute(uri: path, method: .post, headers: WebFixture.headers(session, form: true),
                                                       body: ByteBuffer(string: "id=1&name=Walk&repeat=daily"))
                #expect(refused.status == .forbidden, "\(path)")
            }
        }
    }

    @Test func aGoalIsListedEscapedWithItsRuleAndTargetAndRemovingItOffersUndo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let journal = try web.records()
        let g = try journal.addGoal(name: "Walk <fast> & far", rule: RecurrenceRule(.daily), start: nil, type: "stepCount", target: 10000,
                                    now: DaemonClock.now())
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/goals", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<li class=\"entry\" id=\"goal-\(g.id)\"><div class=\"what\"><strong>Walk &lt;fast&gt; &amp; far</strong><br>"
                                  + "<span class=\"rule\">Every day · 10,000 steps a day, from your data</span><br><span class=\"ring\">Not done yet today</span>"))
            #expect(html.contains("<input type=\"radio\" id=\"repeat-once\" name=\"repeat\" value=\"once\" checked>"))
            #expect(html.contains("<option value=\"stepCount\">Steps</option>"))
            #expect(html.contains("<select id=\"f-type\" name=\"type\" aria-describedby=\"f-type-hint\">"))

            let removed = try await client.execute(uri: "/goals/remove", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: "csrf=\(session.csrf)&id=\(g.id)"))
            #expect(removed.status == .seeOther)
            let address = try #require(removed.headers[.location])
            let location = try #require(web.said(removed, session))
            #expect(location.hasPrefix("/goals?ok=Removed%3A%20Walk%20%3Cfast%3E%20%26%20far.&undo="))
            let landed = try await client.execute(uri: address, method: .get, headers: WebFixture.headers(session)).text
            #expect(landed.contains("<p>Removed: Walk &lt;fast&gt; &amp; far.</p><form method=\"post\" action=\"/undo\" class=\"undo\">"))
            #expect(landed.contains("<p>No goals yet. Add one below.</p>"))
        }
    }

    @Test func aTargetWithoutWhatItCountsIsRefusedNextToTheChoiceKeepingTheName() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/goals/add", method: .post, headers: WebFixture.headers(session, form: true),
                                             body: ByteBuffer(string: "csrf=\(session.csrf)&name=Stairs%20%3E%202&repeat=daily&type=&target=10"))
            #expect(r.status == .unprocessableContent)
            let html = r.text
            #expect(html.contains("<p class=\"notice error\" role=\"alert\">The goal was not saved. See the message next to what needs changing.</p>"))
            #expect(html.contains("<p class=\"error\" id=\"f-type-error\">Choose what the target counts, for example Steps, or clear the target.</p>"))
            #expect(html.contains("<select id=\"f-type\" name=\"type\" aria-describedby=\"f-type-error f-type-hint\" aria-invalid=\"true\">"))
            #expect(html.contains("<input id=\"f-name\" name=\"name\" type=\"text\" value=\"Stairs &gt; 2\""))
            #expect(html.contains("<input type=\"radio\" id=\"repeat-daily\" name=\"repeat\" value=\"daily\" checked>"))
        }
    }
}

/// `/meds/edit`, the page that changes a medication.
@Suite struct MedicationEditRouteTests {
    @Test func withoutASessionTheChangePageAsksToLogInAndAPostWithoutTheCSRFTokenIsRefused() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let med = try web.records().addMedication(Medication(name: "Ibuprofen"), now: DaemonClock.now())
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/meds/edit?id=\(med.id)", method: .get).status == .unauthorized)
            for path in ["/meds/edit", "/meds/remove"] {
                let refused = try await client.execute(uri: path, method: .post, headers: WebFixture.headers(session, form: true),
                                                       body: ByteBuffer(string: "id=\(med.id)&name=Other"))
                #expect(refused.status == .forbidden, "\(path)")
            }
            #expect(try web.records().medications().map(\.name) == ["Ibuprofen"])
        }
    }

    @Test func theFormHoldsTheMedicationEscapedAndAChangeOffersUndo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let med = try web.records().addMedication(Medication(name: "Ibuprofen", dose: "400 mg", directions: "with <food> & water"),
                                                  now: DaemonClock.now())
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/meds/edit?id=\(med.id)", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<title>Change a medication – Health journal</title>"))
            #expect(html.contains("<a href=\"/meds\" aria-current=\"page\">Medications</a>"))
            #expect(html.contains("<input type=\"hidden\" name=\"id\" value=\"\(med.id)\">"))
            #expect(html.contains("<input id=\"f-directions\" name=\"directions\" type=\"text\" value=\"with &lt;food&gt; &amp; water\" autocomplete=\"off\""))
            #expect(html.contains("<input id=\"f-dose\" name=\"dose\" type=\"text\" value=\"400 mg\" autocomplete=\"off\" aria-describedby=\"f-dose-hint\">"))

            let changed = try await client.execute(uri: "/meds/edit", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: "csrf=\(session.csrf)&id=\(med.id)&name=Ibuprofen&dose=200%20mg"))
            #expect(changed.status == .seeOther)
            #expect(web.said(changed, session)?.hasPrefix("/meds?ok=Changed%3A%20Ibuprofen.&undo=") == true)
            #expect(try web.records().medications().first?.dose == "200 mg")

            let gone = try await client.execute(uri: "/meds/edit?id=999", method: .get, headers: WebFixture.headers(session))
            #expect(gone.text.contains("<p>This medication is not there any more.</p>"))
        }
    }

    @Test func aTimeThatIsNoTimeIsRefusedNextToItsFieldKeepingWhatWasTyped() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let med = try web.records().addMedication(Medication(name: "Ibuprofen"), now: DaemonClock.now())
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/meds/edit", method: .post, headers: WebFixture.headers(session, form: true),
                                             body: ByteBuffer(string: "csrf=\(session.csrf)&id=\(med.id)&name=Ibuprofen&times=morning%20%26%20%3Cnight%3E"))
            #expect(r.status == .unprocessableContent)
            let html = r.text
            #expect(html.contains("<p class=\"notice error\" role=\"alert\">The medication was not changed. See the message next to what needs changing.</p>"))
            #expect(html.contains("<p class=\"error\" id=\"f-times-error\">Type times as hours and minutes, for example 08:00, 20:00.</p>"
                                  + "<input id=\"f-times\" name=\"times\" type=\"text\" value=\"morning &amp; &lt;night&gt;\" autocomplete=\"off\" class=\"short\""
                                  + " aria-invalid=\"true\" autofocus aria-describedby=\"f-times-error f-times-hint\">"))
        }
    }
}

/// `/symptoms/ID/edit`, the page that changes a symptom entry, and its two forms.
@Suite struct SymptomEditRouteTests {
    @Test func withoutASessionTheChangePageAsksToLogInAndItsPostsAreRefusedWithoutTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let (entry, _) = try web.journal().logSymptom(SymptomLog(symptom: "Headache", severity: .mild))
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/symptoms/\(entry.id)/edit", method: .get).status == .unauthorized)
            for path in ["/symptoms/edit", "/symptoms/delete"] {
                let refused = try await client.execute(uri: path, method: .post, headers: WebFixture.headers(session, form: true),
                                                       body: ByteBuffer(string: "id=\(entry.id)&severity=severe"))
                #expect(refused.status == .forbidden, "\(path)")
            }
            #expect(try web.journal().symptomEntry(entry.id.description).severity == .mild)
        }
    }

    @Test func theFormHoldsTheEntryEscapedWithItsSeverityChosenAndTheSuggestions() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let (entry, _) = try web.journal().logSymptom(SymptomLog(symptom: "Ache <i>", severity: .severe, relievedBy: ["tea & rest"],
                                                                 note: "\"sharp\" </textarea>"))
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/symptoms/\(entry.id)/edit?back=/day", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<title>Change: Ache &lt;i&gt; – Health journal</title>"))
            #expect(html.contains("<input type=\"hidden\" name=\"id\" value=\"\(entry.id)\"><input type=\"hidden\" name=\"back\" value=\"/day\">"))
            #expect(html.contains("<input type=\"radio\" id=\"sev-severe\" name=\"severity\" value=\"severe\" checked><label for=\"sev-severe\">Severe"))
            #expect(html.contains("<input id=\"f-relieved\" name=\"relieved\" type=\"text\" value=\"tea &amp; rest\" list=\"relieving\" autocomplete=\"off\""))
            #expect(html.contains("<datalist id=\"relieving\"><option value=\"tea &amp; rest\"></option></datalist>"))
            #expect(html.contains("<textarea id=\"f-note\" name=\"note\" rows=\"3\">&quot;sharp&quot; &lt;/textarea&gt;</textarea>"))
            #expect(html.contains("name=\"date\" type=\"date\" value=\"\(entry.at.iso8601Local.prefix(10))\""))
            #expect(html.contains("<a class=\"button secondary\" href=\"/day\">Back without changing</a>"))

            let gone = try await client.execute(uri: "/symptoms/0000dead/edit", method: .get, headers: WebFixture.headers(session))
            #expect(gone.text.contains("<p class=\"notice error\" role=\"alert\">This entry cannot be changed: it was deleted, or the address is not right.</p>"))
        }
    }

    @Test func aChangedSeverityLandsBackWithUndo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        let (entry, _) = try web.journal().logSymptom(SymptomLog(symptom: "Headache", severity: .mild))
        try await web.app.test(.router) { client in
            let r = try await client.execute(uri: "/symptoms/edit", method: .post, headers: WebFixture.headers(session, form: true),
                                             body: ByteBuffer(string: "csrf=\(session.csrf)&id=\(entry.id)&back=/journal&severity=severe"))
            #expect(r.status == .seeOther)
            #expect(web.said(r, session)?.hasPrefix("/journal?ok=Changed%3A%20Headache%2C%20severe") == true)
            #expect(web.said(r, session)?.contains("&undo=") == true)
            #expect(try web.journal().symptomEntry(entry.id.description).severity == .severe)
        }
    }
}

/// `/measure/KEY/edit`, the page that changes a measurement, and its two forms.
@Suite struct MeasureEditRouteTests {
    /// Saves a blood pressure through the measure form; its key as the measurements page links it.
    static func bloodPressure(_ client: some TestClientProtocol, _ session: WebSessions.Session) async throws -> String {
        _ = try await client.execute(uri: "/measure", method: .post, headers: WebFixture.headers(session, form: true),
                                     body: ByteBuffer(string: "csrf=\(session.csrf)&kind=bp&systolic=182&diastolic=82"))
        let page = try await client.execute(uri: "/measure", method: .get, headers: WebFixture.headers(session)).text
        return try #require(page.components(separatedBy: "data-reading=\"").dropFirst().first?.prefix { $0 != "\"" }).description
    }

    @Test func withoutASessionTheChangePageAsksToLogInAndItsPostsAreRefusedWithoutTheCSRFToken() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let key = try await Self.bloodPressure(client, session)
            #expect(try await client.execute(uri: "/measure/\(key)/edit", method: .get).status == .unauthorized)
            for path in ["/measure/edit", "/measure/delete"] {
                let refused = try await client.execute(uri: path, method: .post, headers: WebFixture.headers(session, form: true),
                                                       body: ByteBuffer(string: "key=\(key)&kind=bp&systolic=128&diastolic=82"))
                #expect(refused.status == .forbidden, "\(path)")
            }
        }
    }

    @Test func theFormHoldsTheNumbersAndAChangeLandsBackWithUndo() async throws {
        let web = try WebFixture()
        let session = try web.session()
        try await web.app.test(.router) { client in
            let key = try await Self.bloodPressure(client, session)
            let r = try await client.execute(uri: "/measure/\(key)/edit?back=/day", method: .get, headers: WebFixture.headers(session))
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains("<title>Change: blood pressure – Health journal</title>"))
            #expect(html.contains(": 182/82 mmHg.</p>"))
            #expect(html.contains("<input type=\"hidden\" name=\"kind\" value=\"bp\"><input type=\"hidden\" name=\"back\" value=\"/day\"><div class=\"row\">"))
            #expect(html.contains("<input id=\"f-systolic\" name=\"systolic\" type=\"text\" value=\"182\" required autocomplete=\"off\" inputmode=\"decimal\">"))
            #expect(html.contains("<input id=\"f-diastolic\" name=\"diastolic\" type=\"text\" value=\"82\" required autocomplete=\"off\" inputmode=\"decimal\"></div>"))
            #expect(html.contains("<input type=\"hidden\" name=\"key\" value=\"\(key)\"><input type=\"hidden\" name=\"back\" value=\"/day\"><p>Typed in by mistake?"))

            let changed = try await client.execute(uri: "/measure/edit", method: .post, headers: WebFixture.headers(session, form: true),
                                                   body: ByteBuffer(string: "csrf=\(session.csrf)&key=\(key)&kind=bp&back=/day&systolic=128&diastolic=82"))
            #expect(changed.status == .seeOther)
            let location = try #require(web.said(changed, session))
            #expect(location.hasPrefix("/day?ok=Changed%3A%20blood%20pressure%20128%2F82%20mmHg%20%28was%20182%2F82%20mmHg%29.&undo="))

            let gone = try await client.execute(uri: "/measure/12.nokey/edit", method: .get, headers: WebFixture.headers(session))
            #expect(gone.text.contains("<title>Change a measurement – Health journal</title>"))
            #expect(gone.text.contains("This reading cannot be changed: it was deleted, or the address is not right."))
        }
    }
}
