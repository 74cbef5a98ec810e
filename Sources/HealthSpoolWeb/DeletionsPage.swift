import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The page of samples deleted on the phone (`/deletions`, `deletions.mustache`): what newer
/// full exports no longer held, marked deleted here too (issue 43), with "Put back" for each
/// and for the last import's, as `healthspool deletions --restore` does.
struct DeletionsPage: Sendable {
    struct Row: Sendable {
        let id: String
        let kind: String
        let when: String
        let found: String
        let state: String
        let canRestore: Bool
    }

    let rows: [Row]
    let hasRows: Bool
    let hasDeleted: Bool
    let hasWaiting: Bool

    init(_ lines: [InferredDeletionList.Line]) {
        rows = lines.map { l in
            Row(id: l.id.description, kind: Format.typeName(l.type), when: Format.spoken(l.start), found: Format.spoken(l.found),
                state: l.state == .deleted ? "Deleted" : l.state == .waiting ? "Waiting for your check" : "Put back",
                canRestore: l.state != .restored)
        }
        hasRows = !rows.isEmpty
        hasDeleted = lines.contains { $0.state == .deleted }
        hasWaiting = lines.contains { $0.state == .waiting }
    }

    static func render(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let page = DeletionsPage(try store.inferredDeletions())
        return WebTemplates.render(PageFrame(title: "Deleted on the phone", path: "/deletions", keys: csrf, notice: Notice(query, back: "/deletions"),
                                             page: page), .deletions)
    }

    /// Puts back one sample (`id`, the Put back button's `EntryFields`) or, without one, the last
    /// import's deletions.
    static func restore(_ ctx: Configuration, _ store: LentStore, _ form: EntryFields) throws -> Response {
        var ids: [SampleID]?
        if let text = form.id, !text.isEmpty {
            guard let id = SampleID(string: text) else { return Page.redirect("/deletions", error: "That entry is not on this page any more.") }
            ids = [id]
        }
        let change = try store.restoreDeletions(ids: ids)
        guard change.count > 0 else { return Page.redirect("/deletions", error: "Nothing to put back.") }
        return Page.redirect("/deletions", ok: change.count == 1 ? "Put back. It is sent again." : "\(change.count) entries put back. They are sent again.")
    }
}
