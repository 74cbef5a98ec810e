import HealthSpoolCore
import HealthSpoolDaemon

/// The doctor's summary (`/report`): a period chosen by dates or a quick choice (30 days, 3
/// months, a year, since the latest note of a category), then the same sections as
/// `healthspool report` writes (`ReportHTML.body` of `VisitReports.report`), with a Print
/// button; the print style sheet leaves out the menu and the controls.
enum ReportPage {
    /// The quick choices: days in the period (ending today), label.
    static let choices: [(Int, String)] = [(30, "Last 30 days"), (91, "Last 3 months"), (365, "Last year")]

    static func render(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        let reports = VisitReports(journal: try HealthJournal(context: ctx))
        let now = DaemonClock.now()
        let categories = try reports.journal.noteCategories().map(\.0)
        var p = Page(title: "Health summary", path: "/report", csrf: csrf)
        var problem: String?
        var period = reports.defaultPeriod(now: now)
        do {
            if let days = query["days"].flatMap(Int.init), (1...3660).contains(days) {
                let to = period.to
                period = (CivilDate(daysSinceEpoch: to.daysSinceEpoch - Int64(days) + 1), to)
            } else if let since = query["since"], !since.isEmpty {
                if let day = try reports.lastNoteDay(category: since) {
                    period = try reports.period(from: day.description, to: nil, now: now)
                } else {
                    problem = "There is no note in the category \u{201C}\(since)\u{201D}: showing the last 30 days."
                }
            } else if query["from"] != nil || query["to"] != nil {
                period = try reports.period(from: query["from"].flatMap { $0.isEmpty ? nil : $0 },
                                            to: query["to"].flatMap { $0.isEmpty ? nil : $0 }, now: now)
            }
        } catch {
            problem = "\(error)"
        }
        let questions = query["questions"].flatMap { $0.isEmpty ? nil : $0 }
        let report = try reports.report(from: period.from, to: period.to, now: now, questions: questions)

        if let problem { p.raw("<p class=\"notice error\" role=\"alert\">"); p.text(problem); p.raw("</p>") }
        p.raw("<section class=\"card report-controls\" aria-labelledby=\"rc-h\"><h2 id=\"rc-h\">Period</h2>")
        p.raw("<ul class=\"choices small\" aria-label=\"Quick choices\">")
        let keep = questions.map { "&amp;questions=" + Page.percentEncode($0) } ?? ""
        for (days, label) in choices {
            let current = query["days"] == String(days) ? " aria-current=\"page\"" : ""
            p.raw("<li><a class=\"choice\" href=\"/report?days=\(days)\(keep)\"\(current)>\(label)</a></li>")
        }
        p.raw("</ul>")
        p.raw("<form method=\"get\" action=\"/report\" class=\"report-form\"><div class=\"row\">")
        p.field("From", name: "from", type: "date", value: period.from.description)
        p.field("To", name: "to", type: "date", value: period.to.description)
        if !categories.isEmpty { questionsField(&p, categories, chosen: questions) }
        p.raw("</div><button type=\"submit\">Show this period</button></form>")
        if !categories.isEmpty {
            p.raw("<form method=\"get\" action=\"/report\" class=\"report-form\"><div class=\"field\"><label for=\"f-since\">Since the last appointment: the latest note in</label>")
            p.raw("<select id=\"f-since\" name=\"since\">")
            for c in categories { p.raw("<option value=\"\(Page.escape(c))\"\(c == query["since"] ? " selected" : "")>"); p.text(c); p.raw("</option>") }
            p.raw("</select></div>")
            if let questions { p.raw("<input type=\"hidden\" name=\"questions\" value=\"\(Page.escape(questions))\">") }
            p.raw("<button type=\"submit\" class=\"secondary\">Show since then</button></form>")
        }
        p.raw("<p class=\"row\"><button type=\"button\" id=\"report-print\">Print</button>")
        p.raw("<span class=\"hint\">Or use your browser\u{2019}s Print. The same summary as a file: <code>healthspool report --from \(period.from) --to \(period.to)</code></span></p>")
        p.raw("</section>")
        p.raw(ReportHTML.body(report))
        return p.document(styles: ["/static/report.css", "/report/page.css?from=\(report.from)&to=\(report.to)"], scripts: ["/static/report.js"])
    }

    static func questionsField(_ p: inout Page, _ categories: [String], chosen: String?) {
        p.raw("<div class=\"field\"><label for=\"f-questions\">Notes shown first (questions)</label><select id=\"f-questions\" name=\"questions\">")
        p.raw("<option value=\"\">None</option>")
        for c in categories {
            p.raw("<option value=\"\(Page.escape(c))\"\(c == chosen ? " selected" : "")>"); p.text(c); p.raw("</option>")
        }
        p.raw("</select></div>")
    }

    /// The page's script: the Print button prints.
    static let js = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var b = document.getElementById("report-print");
          if (b) b.addEventListener("click", function () { window.print(); });
        });
        """
}
