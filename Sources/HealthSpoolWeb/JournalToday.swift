import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The journal page (`/journal`, `journal.mustache`), from `JournalTodayView`
/// (`HealthJournal.todayView`): what to note, today's symptoms with Change and Delete, and the
/// scores so far per group and per symptom. The goals are on Today and on `/goals` (issue 40:
/// Today and Journal no longer show the same cards).
struct JournalToday: Sendable {
    /// One of the two score tables.
    struct Table: Sendable {
        struct Row: Sendable {
            let name: String
            let score: Int
            let entries: Int
        }

        let title: String
        let id: String
        /// The first column's heading.
        let header: String
        let scoreRows: [Row]
        let hasRows: Bool
    }

    let todaySymptoms: EntryList?
    let tables: [Table]

    init(_ view: JournalTodayView) {
        let entries = view.day.symptoms.filter { !$0.deleted }.sorted { $0.at.millis < $1.at.millis }
        todaySymptoms = entries.isEmpty ? nil : EntryList.symptoms(entries, id: "symptom-entries", back: "/journal")
        tables = [(ScoreScope.category, "By group (the groups you sort symptoms into)", "scores-category", "Group"), (.symptom, "By symptom", "scores-symptom", "Symptom")].map {
            scope, title, id, header in
            let rows = view.day.scores.filter { $0.scope == scope }.sorted { $0.score != $1.score ? $0.score > $1.score : $0.name < $1.name }
            return Table(title: title, id: id, header: header, scoreRows: rows.map { Table.Row(name: scope == .category ? Format.groupName($0.name) : $0.name, score: $0.score, entries: $0.entries) },
                         hasRows: !rows.isEmpty)
        }
    }

    static func render(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let page = JournalToday(try store.records().todayView(now: DaemonClock.now()))
        return WebTemplates.render(PageFrame(title: "Journal", path: "/journal", keys: csrf, notice: Notice(query, back: "/journal"), page: page),
                                   .journal)
    }

    /// Checks a goal off by hand for today; Undo takes the check back (none when it was
    /// checked off already).
    static func goalDone(_ ctx: Configuration, _ store: LentStore, _ form: EntryFields) throws -> (Response, JournalUndo?) {
        do {
            let journal = try store.records()
            let now = DaemonClock.now()
            let day = try journal.day(nil, now: now)
            let (g, checked) = try journal.checkGoalOff(Int64(form.id ?? "") ?? -1, day: day, now: now)
            return (Page.redirect(Page.back(form.back, else: "/journal"), ok: "Done: \(g.name)."), checked ? .uncheckGoal(g, day: day) : nil)
        } catch { return (Page.redirect(Page.back(form.back, else: "/journal"), error: WebJournal.message(error)), nil) }
    }
}
