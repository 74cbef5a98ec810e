@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
@preconcurrency import HealthSpoolStore

/// The day view (`/day/YYYY-MM-DD`): the date strip and the month calendar bound to the same
/// date, then the day's steps, distance, sleep, heart rate with its curve, the journal's doses,
/// notes, symptoms and scores, and the location log when it is on. Figures come from
/// `HealthDays`, the same use case as `healthspool day`.
enum DayPage {
    static func render(_ ctx: DaemonContext, date: CivilDate, query: Form, csrf: FormKeys) throws -> String {
        let days = try HealthDays(context: ctx)
        let now = DaemonClock.now()
        let today = try days.date(nil, now: now)
        let summary = try days.day(date)
        let journal = JournalUseCases(store: try ctx.openStore(), settings: ctx.settings)
        let entries = try journal.day(date)
        let calendar = try days.month(year: date.year, month: date.month, now: now)
        let scores = try journal.symptomScores(from: calendar.first!.date, to: calendar.last!.date)
        let month = calendar.map { ($0, scores[$0.date] ?? 0) }
        func clock(_ ms: Int64) -> String {
            let s = Timestamp(millis: ms, utcOffsetSeconds: days.zone.offset(atUTCMillis: ms)).iso8601Local
            return String(s.dropFirst(11).prefix(5))
        }

        let style = NumberStyle(environment: ctx.environment)
        var p = Page(title: DayStrip.long(date), path: "/day", csrf: csrf)
        p.notice(query)
        p.raw(DayStrip.strip(selected: date, today: today))
        p.raw("<div class=\"day-layout\"><div class=\"day-main\">")

        p.raw("<section class=\"card\" aria-labelledby=\"act-h\"><h2 id=\"act-h\">Activity</h2><ul class=\"figures\">")
        let steps = summary.totals["stepCount"]
        p.raw("<li><span class=\"ft\">Steps</span><span class=\"fv\" id=\"steps\" data-value=\"\(steps.map { String(Int($0.rounded())) } ?? "")\">\(steps.map(style.count) ?? "none recorded")</span></li>")
        let km = summary.totals["distanceWalkingRunning"]
        p.raw("<li><span class=\"ft\">Distance walked and run</span><span class=\"fv\" id=\"distance\" data-value=\"\(km.map { String(DaySummary.roundedKm($0)) } ?? "")\">\(km.map { style.fixed($0, digits: 2) + " km" } ?? "none recorded")</span></li>")
        let others: [(String, String, (Double) -> String)] = [
            ("flightsClimbed", "Floors climbed", style.count), ("distanceCycling", "Distance cycled", { style.fixed($0, digits: 2) + " km" }),
            ("activeEnergyBurned", "Active energy", { style.count($0) + " kcal" }),
        ]
        for (type, label, text) in others {
            if let v = summary.totals[type] { p.raw("<li><span class=\"ft\">\(label)</span><span class=\"fv\" id=\"\(type)\">"); p.text(text(v)); p.raw("</span></li>") }
        }
        p.raw("</ul></section>")

        p.raw("<section class=\"card\" aria-labelledby=\"sleep-h\"><h2 id=\"sleep-h\">Sleep</h2>")
        if let s = summary.sleep {
            p.raw("<ul class=\"figures\"><li><span class=\"ft\">Asleep</span><span class=\"fv\" id=\"asleep\" data-minutes=\"\(Int(s.asleepMinutes.rounded()))\">\(Self.duration(s.asleepMinutes))</span></li>")
            p.raw("<li><span class=\"ft\">In bed</span><span class=\"fv\" id=\"in-bed\" data-minutes=\"\(Int(s.inBedMinutes.rounded()))\">\(Self.duration(s.inBedMinutes))</span></li>")
            p.raw("<li><span class=\"ft\">From – to</span><span class=\"fv\">\(clock(s.start)) – \(clock(s.end))</span></li></ul>")
            let stages = SleepStage.allCases.compactMap { st in s.stages[st].map { (st, $0) } }
            if !stages.isEmpty {
                p.raw("<table id=\"stages\"><caption>Sleep stages</caption><thead><tr><th scope=\"col\">Stage</th><th scope=\"col\">Time</th></tr></thead><tbody>")
                for (st, m) in stages { p.raw("<tr><td>"); p.text(DayText.stageName(st)); p.raw("</td><td>\(Self.duration(m))</td></tr>") }
                p.raw("</tbody></table>")
            }
        } else {
            p.raw("<p>No sleep recorded for the night that ended on this day.</p>")
        }
        p.raw("</section>")

        p.raw("<section class=\"card\" aria-labelledby=\"hr-h\"><h2 id=\"hr-h\">Heart rate</h2>")
        if let hr = summary.heartRate {
            p.raw("<ul class=\"figures\"><li><span class=\"ft\">Lowest</span><span class=\"fv\" id=\"hr-min\" data-value=\"\(Int(hr.min))\">\(style.count(hr.min)) bpm</span></li>")
            p.raw("<li><span class=\"ft\">Average over time</span><span class=\"fv\" id=\"hr-avg\" data-value=\"\(Int(hr.weightedAverage.rounded()))\">\(style.count(hr.weightedAverage)) bpm</span></li>")
            p.raw("<li><span class=\"ft\">Highest</span><span class=\"fv\" id=\"hr-max\" data-value=\"\(Int(hr.max))\">\(style.count(hr.max)) bpm</span></li></ul>")
            p.raw(HeartCurve.svg(hr, dayStart: summary.start, dayEnd: summary.end))
            p.raw("<p class=\"hint\">\(style.count(Double(hr.count))) readings. The average is weighted by time: each reading counts until the next one, at most 10 minutes, so a workout read every few seconds does not outweigh the rest of the day. The band is the lowest to highest of each 15 minutes, the line their average.</p>")
        } else {
            p.raw("<p>No heart rate recorded on this day.</p>")
        }
        p.raw("</section>")

        p.raw("<section class=\"card\" aria-labelledby=\"measured-h\" id=\"day-measurements\"><h2 id=\"measured-h\">Measurements</h2>")
        if summary.measurements.isEmpty {
            p.raw("<p>Nothing measured by hand on this day.</p><p><a class=\"button secondary\" href=\"/measure\">Add a measurement</a></p>")
        } else {
            p.raw("<ul class=\"readings\">")
            for m in summary.measurements { MeasurePage.reading(m, back: "/day/\(date)", &p) }
            p.raw("</ul>")
        }
        p.raw("</section>")

        p.raw("<section class=\"card\" aria-labelledby=\"journal-h\" id=\"day-journal\"><h2 id=\"journal-h\">Journal</h2>")
        let symptoms = entries.symptoms.filter { !$0.deleted }
        if summary.doses.isEmpty && summary.notes.isEmpty && symptoms.isEmpty && entries.lifestyle.isEmpty {
            p.raw("<p>Nothing written in the journal on this day.</p>")
        }
        if !summary.doses.isEmpty {
            p.raw("<h3>Doses</h3>")
            DoseEdits.list(summary.doses.map { ($0.dose, $0.medication) }, back: "/day/\(date)", &p)
        }
        if !symptoms.isEmpty {
            p.raw("<h3>Symptoms</h3>")
            SymptomEdits.list(symptoms, id: "symptoms", back: "/day/\(date)", &p)
            let scored = entries.scores.filter { $0.scope == .category && $0.score > 0 }
            if !scored.isEmpty {
                p.raw("<h3>Scores</h3><ul id=\"scores\">")
                for s in scored { p.raw("<li>"); p.text("\(s.name): \(s.score) (\(s.entries) \(s.entries == 1 ? "entry" : "entries"))"); p.raw("</li>") }
                p.raw("</ul>")
            }
        }
        if !entries.lifestyle.isEmpty {
            p.raw("<h3>Lifestyle</h3>")
            LifestyleEdits.list(entries.lifestyle, back: "/day/\(date)", &p)
        }
        if !summary.notes.isEmpty {
            p.raw("<h3>Notes</h3><ul class=\"entries\" id=\"day-notes\">")
            for n in summary.notes {
                p.raw("<li><span class=\"what\">\(clock(n.created.millis)) "); p.text(n.text); p.raw("</span>")
                Edits.buttons(&p, edit: "/notes/\(n.id)/edit", delete: "/notes/delete", fields: [("id", String(n.id))],
                              what: "the note of \(clock(n.created.millis))", back: "/day/\(date)")
                p.raw("</li>")
            }
            p.raw("</ul>")
        }
        p.raw("</section>")

        if ctx.settings.locationEnabled {
            p.raw("<section class=\"card\" aria-labelledby=\"loc-h\"><h2 id=\"loc-h\">Location log</h2>")
            let fixes = try ctx.openStore().daySamples(type: "location", from: summary.start, to: summary.end).filter { $0.start >= summary.start }
            if fixes.isEmpty { p.raw("<p>No position recorded on this day.</p>") } else {
                p.raw("<p>\(fixes.count) positions recorded, the first at \(clock(fixes.first!.start)), the last at \(clock(fixes.last!.start)).</p>")
            }
            p.raw("</section>")
        }
        p.raw("</div><aside class=\"day-side\" aria-label=\"Calendar\">")
        p.raw(DayStrip.calendar(month, selected: date))
        p.raw("</aside></div>")
        return p.document(styles: [WebAssets.path("days.css")], scripts: [WebAssets.path("days.js")])
    }

    /// 450 → "7 h 30 min".
    static func duration(_ minutes: Double) -> String {
        let m = Int(minutes.rounded())
        return m >= 60 ? "\(m / 60) h \(m % 60) min" : "\(m) min"
    }
}

extension DaySummary {
    /// Kilometres as the page writes them (two decimals).
    static func roundedKm(_ v: Double) -> Double { (v * 100).rounded() / 100 }
}
