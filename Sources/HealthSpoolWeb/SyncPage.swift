import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// The sending page (`/sync`, "Sending" in the menu, `sync.mustache`) from `SendingView`: what
/// the service is doing, what waits to be sent, recent sends, Sync now. Home (`HomePage`) links
/// here when sending needs attention.
struct SyncPage: Sendable {
    /// Plain words for the daemon's state.
    static let stateWords: [String: (String, String)] = [
        "idle": ("Waiting for new data", "Everything is up to date. New exports you save to the HealthSpool folder are read at once."),
        "importing": ("Reading a file", "A health export is being read."),
        "syncing": ("Sending", "Your data is being sent."),
        "success": ("All sent", "Everything has been sent."),
        "error": ("Needs attention", "Sending did not work. See the problem below."),
        "locked": ("Paused", "Locked: nothing is read or sent until you unlock in Settings."),
        "stopped": ("Not running", "The background service is not running. Ask whoever looks after this computer to start it."),
        "stopping": ("Stopping", "The background service is stopping."),
    ]

    /// Queued counts above this show as "more than …": counting millions of queued samples
    /// exactly takes about a second a page (BENCHMARKS.md, "Views on ten years of data").
    static let queuedCountLimit = 10_000

    /// "1234", or "more than 10,000" for a count past `queuedCountLimit`.
    static func queuedText(_ n: Int) -> String {
        n > queuedCountLimit ? "more than " + NumberStyle.english.count(Double(queuedCountLimit)) : String(n)
    }

    struct Queued: Sendable {
        let kind: String
        let count: String
    }

    struct Send: Sendable {
        let when: String
        let result: String
        let count: Int
    }

    let state: String
    let word: String
    let explain: String
    let lastSent: String?
    let problem: String?
    let noGateway: Bool
    let queued: [Queued]
    let hasQueued: Bool
    /// The queued kinds as bars (`bars.mustache`).
    let bars: BarChart
    let sends: [Send]
    let hasSends: Bool

    init(_ view: SendingView) {
        state = view.state
        var (word, explain) = Self.stateWords[view.state] ?? (view.state, "")
        if !view.queued.isEmpty, view.state == "idle" || view.state == "success" {
            // "Up to date" would not be true: entries wait for the next send (or for a server).
            explain = "Some entries are waiting to be sent: see Waiting to be sent below."
        }
        self.word = word
        self.explain = explain
        lastSent = view.lastSent.map { Format.spoken($0) }
        problem = view.problem
        noGateway = view.problem == nil && view.noGateway
        queued = view.queued.map { Queued(kind: Format.typeName($0.type), count: Self.queuedText($0.count)) }
        hasQueued = !queued.isEmpty
        bars = BarChart(view.queued.map { (Format.typeName($0.type), $0.count) }, label: "Entries waiting to be sent, by kind", valueText: Self.queuedText)
        sends = view.history.map { a in
            Send(when: Format.spoken(a.started), result: a.sent ? "Sent" : "Not sent" + (a.error.map { ": " + $0 } ?? ""), count: a.count)
        }
        hasSends = !sends.isEmpty
    }

    static func render(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let page = SyncPage(try store.sending(queuedCountLimit: queuedCountLimit))
        return WebTemplates.render(PageFrame(title: "Sending", path: "/sync", keys: csrf, notice: Notice(query, back: "/sync"), page: page), .sync)
    }
}
