import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird

/// The doctor's summary (`/report`, `report.mustache`) from `ReportView`: a period chosen by
/// dates or a quick choice (30 days, 3 months, a year, since the latest note of a category),
/// then the same sections as `healthspool report` writes (`report-body` over the
/// `ReportSections` of `VisitReports.report`), with a Print button; the print style sheet leaves out the menu and
/// the controls.
struct ReportPage: Sendable {
    /// A quick choice of period.
    struct Quick: Sendable {
        let href: String
        let label: String
        let current: Bool
    }

    /// A note category of a list.
    struct Choice: Sendable {
        let value: String
        let selected: Bool
    }

    let problem: String?
    let quick: [Quick]
    let from: String
    let to: String
    let hasCategories: Bool
    let questionChoices: [Choice]
    let sinceChoices: [Choice]
    /// The questions' category, kept when the period is chosen by "since".
    let keptQuestions: String?
    /// The report's sections (`report-body.mustache`).
    let sections: ReportSections
    /// The name printed on it (`report.name`), "" when none: set in the page's own form.
    let name: String
    /// The same period as a FHIR file (`/report/fhir`).
    let fhirHref: String

    /// The quick choices: days in the period (ending today), label.
    static let choices: [(Int, String)] = [(30, "Last 30 days"), (91, "Last 3 months"), (365, "Last year")]

    /// `days`: the quick choice asked for; `since`: the category asked for.
    init(_ view: ReportView, days: String?, since: String?) {
        problem = view.problem
        let keep = view.questions.map { "&questions=" + Page.percentEncode($0) } ?? ""
        quick = Self.choices.map { Quick(href: "/report?days=\($0.0)" + keep, label: $0.1, current: days == String($0.0)) }
        from = view.report.from.description
        to = view.report.to.description
        hasCategories = !view.categories.isEmpty
        questionChoices = view.categories.map { Choice(value: $0, selected: $0 == view.questions) }
        sinceChoices = view.categories.map { Choice(value: $0, selected: $0 == since) }
        keptQuestions = view.questions
        sections = ReportSections(view.report)
        name = view.report.name ?? ""
        fhirHref = "/report/fhir?from=\(from)&to=\(to)"
    }

    /// The name form's one field.
    struct NameFields: Decodable, Sendable {
        var name: String?
    }

    /// Sets the name printed on the summary (`report.name`, as in healthspool.conf); empty: none.
    static func saveName(_ ctx: Configuration, _ form: NameFields) throws -> Response {
        let name = (form.name ?? "").trimmingSpaces
        guard name.count <= 80, !name.contains("\""), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return Page.redirect("/report", error: "Type the name in one line, up to 80 letters, without quotation marks.")
        }
        try SettingsLoader.update(paths: ctx.paths, [("report.name", name.isEmpty ? nil : name)])
        return Page.redirect("/report", ok: name.isEmpty ? "No name is printed on the summary now." : "The summary now says it is for \(name).")
    }

    /// The period the query asks for.
    static func ask(_ query: Form) -> ReportView.Ask {
        if let days = query["days"].flatMap(Int.init), (1...3660).contains(days) { return .days(days) }
        if let since = query["since"], !since.isEmpty { return .since(category: since) }
        if query["from"] != nil || query["to"] != nil {
            return .dates(from: query["from"].flatMap { $0.isEmpty ? nil : $0 }, to: query["to"].flatMap { $0.isEmpty ? nil : $0 })
        }
        return .standard
    }

    /// The FHIR file of the period `from`–`to` of the query (`healthspool report --fhir`): its
    /// file name and its text. Made here and handed to the person's own browser only.
    static func fhirFile(_ ctx: Configuration, store: LentStore, query: Form) throws -> (name: String, text: String) {
        let reports = VisitReports(journal: try store.records())
        let now = DaemonClock.now()
        let period = try reports.period(from: query["from"].flatMap { $0.isEmpty ? nil : $0 },
                                        to: query["to"].flatMap { $0.isEmpty ? nil : $0 }, now: now)
        let document = try reports.fhirDocument(from: period.from, to: period.to, now: now, patientKey: ctx.fhirPatientKey)
        var w = JSONWriter(capacity: 1 << 20)
        w.value(document.bundle)
        return ("health-summary-\(period.from)-to-\(period.to).fhir.json", w.text + "\n")
    }

    static func render(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let view = try VisitReports(journal: try store.records()).view(ask(query), questions: query["questions"], now: DaemonClock.now())
        let page = ReportPage(view, days: query["days"], since: query["since"])
        return WebTemplates.render(PageFrame(title: "Health summary", path: "/report", keys: csrf, notice: Notice(query, back: "/report"),
                                             extraStyles: ["/static/report.css", "/report/page.css?from=\(page.from)&to=\(page.to)"],
                                             extraScripts: [WebAssets.path("report.js")], page: page), .report)
    }
}
