import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon

/// The home page (`/`, `home.mustache`): today, from `HomeView` (made by `HomeToday`) — the
/// day's steps, sleep and heart rate first (above the fold on a phone, issue 40), log a symptom,
/// doses due with Taken, the symptoms so far, the latest measurements, the goals; one line when
/// sending needs attention (the details are on `/sync`, `SyncPage`). Changing an entry and the
/// day's scores are the journal's (`/journal`), not repeated here.
struct HomePage: Sendable {
    struct Choice: Sendable {
        let name: String
        let href: String
        /// The word in plain words, for a child ("Nausea": "feeling sick").
        let gloss: String?
    }

    let attention: String?
    /// A line per source that went quiet (issue 43).
    let quiet: [String]
    let symptomChoices: [Choice]
    let doses: [HomeView.DoseDue]
    let hasDoses: Bool
    /// "08:10 Headache: moderate".
    let symptoms: [String]
    let hasSymptoms: Bool
    /// Steps, sleep and heart rate.
    let figures: [HomeView.Figure]
    /// The latest measurements (blood pressure, oxygen, sugar, weight).
    let measurements: [HomeView.Figure]
    let hasMeasurements: Bool
    let goals: GoalsCard

    init(_ home: HomeView) {
        attention = home.attention
        quiet = home.quiet
        symptomChoices = home.symptomChoices.map {
            Choice(name: $0, href: "/symptoms/log?symptom=" + Page.percentEncode($0), gloss: Format.symptomGloss[$0.lowercased()])
        }
        doses = home.doses
        hasDoses = !doses.isEmpty
        symptoms = home.symptoms.map { "\($0.time) \($0.symptom): \($0.severity)" }
        hasSymptoms = !symptoms.isEmpty
        let first: Set = ["steps", "sleep", "heart-rate"]
        figures = home.figures.filter { first.contains($0.id) }
        measurements = home.figures.filter { !first.contains($0.id) }
        hasMeasurements = !measurements.isEmpty
        goals = GoalsCard(home.goals, back: "/", style: home.style)
    }

    static func render(_ ctx: Configuration, store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let page = HomePage(try store.home(zone: ctx.currentZone()).view(now: DaemonClock.now()))
        return WebTemplates.render(PageFrame(title: "Today", path: "/", keys: csrf, notice: Notice(query, back: "/"), page: page), .home)
    }
}

/// Today's goals as a checklist (`goals.mustache`), numbers in the user's style.
struct GoalsCard: Sendable {
    struct Item: Sendable {
        let id: Int64
        let name: String
        let done: Bool
        /// A measured goal's "4,210 of 8,000 steps".
        let progress: String?
        let status: String
    }

    let items: [Item]
    let hasItems: Bool
    /// Where "Mark done" lands: the page showing the card.
    let back: String

    init(_ goals: [GoalStatus], back: String, style: NumberStyle) {
        items = goals.map { g in
            var progress: String?
            if let target = g.goal.target, let type = g.goal.type {
                progress = "\(style.number(g.total ?? 0, digits: 1)) of \(style.number(target, digits: 1)) \(Format.typeName(type).lowercased())"
            }
            return Item(id: g.goal.id, name: g.goal.name, done: g.done != nil, progress: progress,
                        status: g.done == nil ? "Not done yet" : g.done == .data ? "Done: reached by your data" : "Done")
        }
        hasItems = !items.isEmpty
        self.back = back
    }
}
