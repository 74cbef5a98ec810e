import HealthSpoolCore

extension ReportHTML {
    /// Steps and sleep: the means, a chart of each, and a row per day (per week past two months).
    static func activity(_ r: VisitReport, _ h: inout HTMLText) {
        guard let a = r.activity else { return }
        open("activity", "Activity and sleep", &h)
        h.raw("<p class=\"report-means\">")
        var means: [String] = []
        if let s = a.meanSteps { means.append("Mean steps a day: " + number(s.rounded())) }
        if let s = a.meanAsleepMinutes { means.append("mean asleep: " + duration(s)) }
        if let s = a.meanInBedMinutes { means.append("mean in bed: " + duration(s)) }
        h.text(means.joined(separator: "; ") + ".")
        h.raw(" <span class=\"hint\">Means over the days with data; totals as in the day view.</span></p>")
        if a.meanSteps != nil {
            h.raw("<div class=\"keep\"><h3>Steps</h3>")
            h.raw(ReportChart.bars(a.days.map { $0.steps ?? 0 }, days: r.days, label: "Steps per day", id: "steps"))
            h.raw("</div>")
        }
        if a.meanAsleepMinutes != nil {
            h.raw("<div class=\"keep\"><h3>Hours asleep</h3>")
            h.raw(ReportChart.bars(a.days.map { ($0.asleepMinutes ?? 0) / 60 }, days: r.days, label: "Hours asleep per night", id: "sleep"))
            h.raw("</div>")
        }
        let weekly = a.days.count > 62
        h.raw(table(weekly ? "Steps and sleep by week" : "Steps and sleep by day", narrow: true) + "<thead><tr><th scope=\"col\">\(weekly ? "Week of" : "Date")</th>")
        h.raw("<th scope=\"col\" class=\"num\">\(weekly ? "Mean steps" : "Steps")</th><th scope=\"col\" class=\"num\">\(weekly ? "Mean asleep" : "Asleep")</th>")
        h.raw("<th scope=\"col\" class=\"num\">\(weekly ? "Mean in bed" : "In bed")</th></tr></thead><tbody>")
        for (label, days) in rows(a.days, weekly: weekly) {
            func mean(_ v: [Double]) -> Double? { v.isEmpty ? nil : v.reduce(0, +) / Double(v.count) }
            let steps = mean(days.compactMap(\.steps)), asleep = mean(days.compactMap(\.asleepMinutes))
            let inBed = mean(days.compactMap(\.inBedMinutes))
            guard steps != nil || asleep != nil || inBed != nil else { continue }
            h.raw("<tr><td>"); h.text(short(label)); h.raw("</td><td class=\"num\">"); h.text(steps.map { number($0.rounded()) } ?? "–")
            h.raw("</td><td class=\"num\">"); h.text(asleep.map(duration) ?? "–"); h.raw("</td><td class=\"num\">")
            h.text(inBed.map(duration) ?? "–"); h.raw("</td></tr>")
        }
        h.raw("</tbody></table></div></section>")
    }

    /// The days one by one, or grouped by week (Monday first).
    static func rows(_ days: [ActivityDay], weekly: Bool) -> [(CivilDate, [ActivityDay])] {
        guard weekly else { return days.map { ($0.day, [$0]) } }
        var out: [(CivilDate, [ActivityDay])] = []
        for d in days {
            let w = Adherence.weekStart(of: d.day)
            if out.last?.0 == w { out[out.count - 1].1.append(d) } else { out.append((w, [d])) }
        }
        return out
    }

    /// The factors named most with symptoms, and the lifestyle factors on the worst days.
    static func factors(_ r: VisitReport, _ h: inout HTMLText) {
        guard let f = r.factors else { return }
        open("factors", "Factors", &h)
        func names(_ title: String, _ list: [NameCount]) {
            guard !list.isEmpty else { return }
            h.raw(table(title, narrow: true) + "<caption>\(title)</caption><thead><tr><th scope=\"col\">Factor</th>")
            h.raw("<th scope=\"col\" class=\"num\">Times named</th></tr></thead><tbody>")
            for n in list { h.raw("<tr><td>"); h.text(n.name); h.raw("</td><td class=\"num\">\(n.count)</td></tr>") }
            h.raw("</tbody></table></div>")
        }
        names("Named as making symptoms worse", f.aggravating)
        names("Named as relieving symptoms", f.relieving)
        if !f.lifestyle.isEmpty {
            h.raw(table("Lifestyle factors", narrow: true) + "<caption>Lifestyle factors logged on the \(f.highDays) day\(f.highDays == 1 ? "" : "s") with the highest symptom scores, against the other \(f.otherDays) days</caption>")
            h.raw("<thead><tr><th scope=\"col\">Factor</th><th scope=\"col\" class=\"num\">Highest-score days</th>")
            h.raw("<th scope=\"col\" class=\"num\">Other days</th></tr></thead><tbody>")
            for l in f.lifestyle {
                h.raw("<tr><td>"); h.text(l.factor)
                h.raw("</td><td class=\"num\">\(l.highDays) of \(f.highDays)</td><td class=\"num\">\(l.otherDays) of \(f.otherDays)</td></tr>")
            }
            h.raw("</tbody></table></div>")
        }
        h.raw("</section>")
    }
}
