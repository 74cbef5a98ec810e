@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
@preconcurrency import HealthSpoolStore

/// The sending page (`/sync`, "Sending" in the menu): what the service is doing, what waits to
/// be sent, recent sends, Sync now. Home (`HomePage`) links here when sending needs attention.
enum SyncPage {
    /// Plain words for the daemon's state.
    static let stateWords: [String: (String, String)] = [
        "idle": ("Waiting for new data", "Everything is up to date. New exports you save to the HealthSpool folder are read at once."),
        "importing": ("Reading a file", "A health export is being read."),
        "syncing": ("Sending", "Your data is being sent."),
        "success": ("All sent", "Everything has been sent."),
        "error": ("Needs attention", "Sending did not work. See the problem below."),
        "locked": ("Paused", "Locked: nothing is read or sent until you unlock in Settings."),
        "stopped": ("Not running", "The background service is not running. Ask whoever looks after this computer to start it (the command is systemctl --user start healthspool)."),
        "stopping": ("Stopping", "The background service is stopping."),
    ]

    /// Queued counts above this show as "more than …": counting millions of queued samples
    /// exactly takes about a second a page (BENCHMARKS.md, "Views on ten years of data").
    static let queuedCountLimit = 10_000

    /// "1234", or "more than 10,000" for a count past `queuedCountLimit`.
    static func queuedText(_ n: Int) -> String {
        n > queuedCountLimit ? "more than " + NumberStyle.english.count(Double(queuedCountLimit)) : String(n)
    }

    static func render(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        var p = Page(title: "Sending", path: "/sync", csrf: csrf)
        p.notice(query)
        let report = try StatusReport(context: ctx, queuedCountLimit: queuedCountLimit).json
        let state = report["daemon"]?["state"]?.stringValue ?? "stopped"
        var (word, explain) = stateWords[state] ?? (state, "")
        let waiting = (report["store"]?["queuedByType"]?.objectValue ?? []).contains { ($0.1.intValue ?? 0) > 0 }
        if waiting, state == "idle" || state == "success" {
            // "Up to date" would not be true: entries wait for the next send (or for a server).
            explain = "Some entries are waiting to be sent: see Waiting to be sent below."
        }
        p.raw("<section class=\"card\" aria-labelledby=\"state-h\"><h2 id=\"state-h\">Status</h2>")
        p.raw("<p class=\"state \(Page.escape(state))\" id=\"daemon-state\" data-state=\"\(Page.escape(state))\">"); p.text(word); p.raw("</p><p>"); p.text(explain); p.raw("</p>")
        if let last = report["lastSuccessfulSync"]?["at"]?.stringValue {
            p.raw("<p>Last sent successfully: "); p.text(Format.when(last)); p.raw("</p>")
        } else {
            p.raw("<p>Nothing has been sent yet.</p>")
        }
        if let problem = report["gateway"]?["stoppedReason"]?.stringValue ?? report["gateway"]?["error"]?.stringValue {
            p.raw("<p class=\"notice error\" role=\"alert\">Problem: "); p.text(problem)
            p.raw(" What to do: check the receiving server in <a href=\"/settings#gateway\">Settings</a> and use Test connection.</p>")
        } else if report["gateway"]?["url"] == .null {
            p.raw("<p class=\"notice error\">No receiving server is set, so your data stays on this computer. To send it, ask whoever looks after this computer to set one (the command is healthspool gateway set).</p>")
        }
        p.raw("</section>")

        p.raw("<section class=\"card\" aria-labelledby=\"sync-h\"><h2 id=\"sync-h\">Sync now</h2>")
        p.raw("<p>Sends everything that is waiting, without waiting for the schedule.</p>")
        p.raw("<div class=\"row\"><button type=\"button\" id=\"sync-now\">Sync now</button></div>")
        p.raw("<p><label for=\"sync-progress\">Progress</label><progress id=\"sync-progress\" max=\"100\" value=\"0\">0 %</progress></p>")
        p.raw("<p id=\"sync-text\" role=\"status\" aria-live=\"polite\">Not started.</p></section>")

        let queued = (report["store"]?["queuedByType"]?.objectValue ?? []).filter { ($0.1.intValue ?? 0) > 0 }
        p.raw("<section class=\"card\" aria-labelledby=\"queue-h\"><h2 id=\"queue-h\">Waiting to be sent</h2>")
        if queued.isEmpty { p.raw("<p>Nothing is waiting.</p>") } else {
            p.raw(Chart.bars(queued.map { (Format.typeName($0.0), $0.1.intValue ?? 0) }, label: "Entries waiting to be sent, by kind",
                             valueText: Self.queuedText))
            p.raw("<table><thead><tr><th scope=\"col\">Kind of data</th><th scope=\"col\">Entries</th></tr></thead><tbody>")
            for (t, n) in queued { p.raw("<tr><td>"); p.text(Format.typeName(t)); p.raw("</td><td>\(Self.queuedText(n.intValue ?? 0))</td></tr>") }
            p.raw("</tbody></table>")
        }
        p.raw("</section>")

        p.raw("<section class=\"card\" aria-labelledby=\"hist-h\"><h2 id=\"hist-h\">Recent sends</h2>")
        let history = FileSystemCheck.exists(ctx.storePath) ? ((try? SampleStore(path: ctx.storePath).syncHistory(limit: 8)) ?? []) : []
        if history.isEmpty { p.raw("<p>No sends yet.</p>") } else {
            p.raw("<table><thead><tr><th scope=\"col\">When</th><th scope=\"col\">Result</th><th scope=\"col\">Entries</th></tr></thead><tbody>")
            for a in history {
                p.raw("<tr><td>"); p.text(Format.when(a.started.iso8601UTC)); p.raw("</td><td>")
                p.text(a.outcome == "success" ? "Sent" : "Not sent" + (a.error.map { ": " + $0 } ?? ""))
                p.raw("</td><td>\(a.count)</td></tr>")
            }
            p.raw("</tbody></table>")
        }
        p.raw("</section>")
        return p.document()
    }
}
