import HealthSpoolCore
import HealthSpoolDaemon
import Mustache

/// What `layout.mustache` shows around a page: the title, the menu with the current page
/// marked, the page's style sheets and scripts, the forms' keys, and the page's view model
/// (`page`, read inside `{{#page}}` by the page's template).
struct PageFrame {
    /// One entry of the menu.
    struct Link {
        let href: String
        let label: String
        let current: Bool
    }

    /// The menu, in order: path and label. The person's pages, one row at 1280 px (issue 40)...
    static let sections: [(String, String)] = [
        ("/", "Today"), ("/day", "Days"), ("/journal", "Journal"), ("/notes", "Notes"), ("/meds", "Medications"), ("/measure", "Measurements"),
        ("/lifestyle", "Lifestyle"), ("/goals", "Goals"), ("/reminders", "Reminders"), ("/report", "Summary"),
    ]

    /// ... and the pages that set the service up, beside the title when wide, after the rest in
    /// the phone's menu.
    static let setupSections: [(String, String)] = [("/import", "Import"), ("/sync", "Sending"), ("/settings", "Settings")]

    /// Pages without an entry of their own in the menu, and the entry they belong under.
    static let under: [String: String] = ["/deletions": "/sync", "/records": "/report"]

    let title: String
    let csrf: String
    let once: MustacheLambda
    let nav: [Link]
    let setup: [Link]
    let styles: [String]
    let scripts: [String]
    let notice: Notice?
    let page: Any

    /// `extraStyles` and `extraScripts`: addresses after the app's own (`WebAssets.path` or a
    /// page's own route).
    init(title: String, path: String, keys: FormKeys, notice: Notice? = nil, extraStyles: [String] = [], extraScripts: [String] = [],
         page: Any = "") {
        self.title = title
        let fields = KeyFields(keys)
        csrf = fields.csrf
        once = fields.once
        let section = Self.under[path] ?? path
        nav = Self.sections.map { Link(href: $0.0, label: $0.1, current: $0.0 == section) }
        setup = Self.setupSections.map { Link(href: $0.0, label: $0.1, current: $0.0 == section) }
        styles = [WebAssets.path("app.css")] + extraStyles
        scripts = [WebAssets.path("app.js")] + extraScripts
        self.notice = notice
        self.page = page
    }
}

/// The message a page shows after an action (`notice.mustache`): the one the server holds for
/// the session under the `notice` id of the address the action redirected to (`SessionMemory`):
/// `ok` or `error`, with `undo` the Undo offer's token, with `emergency` `EmergencyLine` under
/// it. Nothing of it comes from the address's text.
struct Notice {
    let ok: String?
    let undo: String?
    /// Where Undo lands: the page showing the notice.
    let back: String
    let emergency: String?
    let error: String?

    init?(_ query: Form, back: String) {
        guard let held = query.notice, held.ok != nil || held.error != nil else { return nil }
        ok = held.ok
        undo = ok != nil ? held.undo : nil
        error = held.error
        emergency = ok != nil && held.emergency ? EmergencyLine.text : nil
        self.back = back
    }
}
