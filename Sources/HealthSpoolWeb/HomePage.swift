@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
@preconcurrency import HealthSpoolStore

/// The home page (`/`): today, from `HomeView` — log a symptom, doses due with Taken, the
/// symptoms and scores so far, the day's figures, the goals; one line when sending needs
/// attention (the details are on `/sync`, `SyncPage`).
enum HomePage {
    static func render(_ ctx: DaemonContext, store: SampleStore, query: Form, csrf: FormKeys) throws -> String {
        let home = try HomeToday(context: ctx, store: store, zone: ctx.currentZone()).view(now: DaemonClock.now())
        var p = Page(title: "Today", path: "/", csrf: csrf)
        p.notice(query)
        if let line = home.attention {
            p.raw("<p class=\"notice attention\" id=\"attention\">"); p.text(line); p.raw("</p><p><a class=\"button secondary\" href=\"/sync\">What to do</a></p>")
        }
        SymptomPages.startCard(WebJournal.on(store, ctx), &p)
        doses(home, &p)
        symptoms(home, &p)
        figures(home, &p)
        JournalToday.goalsCard(home.goals, back: "/", style: home.style, &p)
        return p.document()
    }

    static func doses(_ home: HomeView, _ p: inout Page) {
        p.raw("<section class=\"card\" aria-labelledby=\"doses-h\" id=\"home-doses\"><h2 id=\"doses-h\">Medications today</h2>")
        if home.doses.isEmpty {
            p.raw("<p>No medication reminders today.</p><p><a class=\"button secondary\" href=\"/meds\">Medications</a></p></section>")
            return
        }
        p.raw("<ul class=\"due\">")
        for d in home.doses {
            p.raw("<li class=\"dose\" data-taken=\"\(d.taken)\"><span class=\"what\"><strong>"); p.text(d.time + " " + d.medication); p.raw("</strong>")
            if d.taken {
                p.raw("<br><span class=\"status\">Taken ✓</span></span>")
            } else {
                p.raw("<br><span class=\"status\">Not taken yet</span></span>")
                p.form("/meds/take", cssClass: "") { p in
                    p.raw("<input type=\"hidden\" name=\"id\" value=\"\(d.medicationID)\"><input type=\"hidden\" name=\"back\" value=\"/\">")
                    p.raw("<button type=\"submit\" aria-label=\"Taken: \(Page.escape(d.medication)) at \(d.time)\">Taken</button>")
                }
            }
            p.raw("</li>")
        }
        p.raw("</ul></section>")
    }

    static func symptoms(_ home: HomeView, _ p: inout Page) {
        p.raw("<section class=\"card\" aria-labelledby=\"feel-today-h\" id=\"home-symptoms\"><h2 id=\"feel-today-h\">Symptoms today</h2>")
        if home.symptoms.isEmpty {
            p.raw("<p>Nothing logged today.</p></section>")
            return
        }
        p.raw("<ul id=\"home-symptom-list\">")
        for s in home.symptoms { p.raw("<li>"); p.text("\(s.time) \(s.symptom): \(s.severity)"); p.raw("</li>") }
        p.raw("</ul><h3>Scores so far</h3><ul id=\"home-scores\">")
        for s in home.scores {
            p.raw("<li>"); p.text("\(s.name): \(s.score) (\(s.entries) \(s.entries == 1 ? "entry" : "entries"))"); p.raw("</li>")
        }
        p.raw("</ul><p><a class=\"button secondary\" href=\"/journal\">All of today in the journal</a></p></section>")
    }

    static func figures(_ home: HomeView, _ p: inout Page) {
        p.raw("<section class=\"card\" aria-labelledby=\"fig-h\" id=\"home-figures\"><h2 id=\"fig-h\">Today’s figures</h2><ul class=\"home-figures\">")
        for f in home.figures {
            p.raw("<li id=\"fig-\(f.id)\"><span class=\"ft\">"); p.text(f.title); p.raw("</span><span class=\"fv\">"); p.text(f.text)
            if let when = f.when { p.raw(" <span class=\"when\">"); p.text(when); p.raw("</span>") }
            p.raw("</span></li>")
        }
        p.raw("</ul><p class=\"row\"><a class=\"button secondary\" href=\"/day\">The whole day</a><a class=\"button secondary\" href=\"/measure\">Add a measurement</a></p></section>")
    }
}
