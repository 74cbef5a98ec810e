@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
@preconcurrency import HealthSpoolStore
import Hummingbird

/// The journal page's day: what was logged today, the day's scores per group and per symptom
/// ("so far": the day is not over), and the goals as a checklist (measured goals tick
/// themselves once the day's data reaches the target).
enum JournalToday {
    static func render(_ ctx: DaemonContext, _ p: inout Page) throws {
        let journal = try WebJournal.open(ctx)
        let day = try journal.day(nil)
        p.raw("<section class=\"card\" aria-labelledby=\"today-h\"><h2 id=\"today-h\">Symptoms today</h2>")
        let entries = day.symptoms.filter { !$0.deleted }
        if entries.isEmpty { p.raw("<p>Nothing logged today.</p>") } else {
            SymptomEdits.list(entries.sorted(by: { $0.at.millis < $1.at.millis }), id: "symptom-entries", back: "/journal", &p)
        }
        p.raw("<p><a class=\"button\" href=\"/#feel-h\">Log a symptom</a></p></section>")

        p.raw("<section class=\"card\" aria-labelledby=\"scores-h\"><h2 id=\"scores-h\">Today’s scores so far</h2>")
        p.raw("<p class=\"hint\">Each entry counts: mild 1, moderate 2, severe 3, debilitating 4. 0 means nothing was logged.</p>")
        for (scope, title, id) in [(ScoreScope.category, "Per group", "scores-category"), (.symptom, "Per symptom", "scores-symptom")] {
            let rows = day.scores.filter { $0.scope == scope }
            p.raw("<h3>\(title)</h3>")
            if rows.isEmpty { p.raw("<p>No scores yet.</p>"); continue }
            p.raw("<table id=\"\(id)\"><thead><tr><th scope=\"col\">\(scope == .category ? "Group" : "Symptom")</th><th scope=\"col\">Score</th><th scope=\"col\">Entries</th></tr></thead><tbody>")
            for s in rows.sorted(by: { $0.score != $1.score ? $0.score > $1.score : $0.name < $1.name }) {
                p.raw("<tr><td>"); p.text(s.name); p.raw("</td><td>\(s.score)</td><td>\(s.entries)</td></tr>")
            }
            p.raw("</tbody></table>")
        }
        p.raw("</section>")
        try goals(ctx, &p)
    }

    static func goals(_ ctx: DaemonContext, _ p: inout Page) throws {
        let journal = try HealthJournal(context: ctx)
        let now = DaemonClock.now()
        let today = try journal.day(nil, now: now)
        let card = GoalsCard(try journal.goals(on: today, now: now).filter(\.applies), back: "/journal", style: NumberStyle(environment: ctx.environment))
        p.raw(WebTemplates.partial("goals", card, keys: p.keys))
    }

    /// Checks a goal off by hand for today.
    static func goalDone(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        do {
            let journal = try HealthJournal(context: ctx)
            let now = DaemonClock.now()
            let g = try journal.completeGoal(Int64(form["id"] ?? "") ?? -1, day: try journal.day(nil, now: now), now: now)
            return Page.redirect(Page.back(form, else: "/journal"), ok: "Done: \(g.name).")
        } catch { return Page.redirect(Page.back(form, else: "/journal"), error: WebJournal.message(error)) }
    }
}
