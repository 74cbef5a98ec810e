import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolGateway
import HealthSpoolLinux
import Hummingbird

/// Settings: which kinds of data are kept and sent (by category, with what each is), how often
/// they are sent, the receiving server (never its password or key) with Test connection, and
/// the lock. Changes are written to the user's config file, which the daemon reloads at once.
enum SettingsPage {
    static let frequencyWords: [(SyncFrequency, String)] = [
        (.realtime, "As soon as there is new data"), (.hourly, "Once an hour"), (.daily, "Once a day"),
        (.manual, "Only when I press Sync now"),
    ]

    static func render(_ ctx: DaemonContext, query: Form, csrf: FormKeys) -> String {
        var p = Page(title: "Settings", path: "/settings", csrf: csrf)
        p.notice(query)
        let s = ctx.settings
        let locked = LockFlag.isSet(context: ctx)

        p.raw("<h2 id=\"lock\">Pause</h2>")
        p.form("/settings/lock") { p in
            p.raw("<p>\(locked ? "Locked: nothing is read or sent." : "Not locked: new data is read and sent.")</p>")
            p.raw("<input type=\"hidden\" name=\"locked\" value=\"\(locked ? "0" : "1")\">")
            p.raw("<button type=\"submit\">\(locked ? "Unlock" : "Lock")</button>")
        }

        p.raw("<h2 id=\"imported\">Exports after import</h2>")
        p.form("/settings/after-import") { p in
            if s.afterImport == .delete {
                p.raw("<p>Exports are deleted as soon as their data is stored.</p>")
                p.raw("<input type=\"hidden\" name=\"after\" value=\"archive\">")
                p.raw("<button type=\"submit\">Keep them in archive/ again</button>")
            } else {
                p.raw("<p>Imported exports are kept, unencrypted unless your disk is, in the spool's archive/ folder for \(s.archiveDays) days. You can have them deleted as soon as their data is stored instead.</p>")
                p.raw("<input type=\"hidden\" name=\"after\" value=\"delete\">")
                p.raw("<button type=\"submit\">Delete exports after import</button>")
            }
        }

        p.raw("<h2 id=\"frequency\">How often data is sent</h2>")
        p.form("/settings/frequency") { p in
            p.raw("<div class=\"field\"><label for=\"f-frequency\">Send</label><select id=\"f-frequency\" name=\"frequency\">")
            for (f, word) in frequencyWords {
                p.raw("<option value=\"\(f.rawValue)\"\(f == s.syncFrequency ? " selected" : "")>"); p.text(word); p.raw("</option>")
            }
            p.raw("</select></div><button type=\"submit\">Save how often</button>")
        }

        p.raw("<h2 id=\"glucose\">Blood sugar unit</h2>")
        p.form("/settings/glucose") { p in
            p.raw("<fieldset><legend>Type and show blood sugar in</legend>")
            for (unit, words) in glucoseWords {
                let id = "glucose-" + (unit == .mmolPerL ? "mmol" : "mg")
                p.raw("<div class=\"check\"><input type=\"radio\" id=\"\(id)\" name=\"unit\" value=\"\(Page.escape(unit.rawValue))\"\(unit == s.glucoseUnit ? " checked" : "")>")
                p.raw("<label for=\"\(id)\">"); p.text(words); p.raw("</label></div>")
            }
            p.raw("</fieldset><button type=\"submit\">Save blood sugar unit</button>")
        }

        p.raw("<h2 id=\"gateway\">Receiving server</h2>")
        p.form("/settings/gateway/test") { p in
            if let url = s.gatewayURL {
                p.raw("<p>Data is sent to "); p.text(url); p.raw(". Its password or key is never shown here.</p>")
                p.raw("<button type=\"submit\">Test connection</button>")
            } else {
                p.raw("<p>No receiving server is set, so your data stays on this computer. To send it, ask whoever looks after this computer to set one (the command is healthspool gateway set).</p>")
            }
        }

        p.raw("<h2 id=\"types\">Kinds of data</h2><p>Checked kinds are kept and sent; unchecked ones are neither kept nor sent.</p>")
        for category in DataCategory.allCases {
            p.form("/settings/types", cssClass: "") { p in
                p.raw("<fieldset><legend>"); p.text(category.displayName); p.raw("</legend>")
                p.raw("<input type=\"hidden\" name=\"category\" value=\"\(category.rawValue)\">")
                for t in category.dataTypes {
                    let id = "t-" + t.name
                    p.raw("<div class=\"check\"><input type=\"checkbox\" id=\"\(id)\" name=\"on-\(t.name)\" value=\"1\"\(s.isEnabled(t.name) ? " checked" : "") aria-describedby=\"\(id)-d\">")
                    p.raw("<div><label for=\"\(id)\">"); p.text(Format.typeName(t.name)); p.raw("</label>")
                    p.raw("<span class=\"hint\" id=\"\(id)-d\">"); p.text(t.summary); p.raw("</span></div></div>")
                }
                p.raw("<button type=\"submit\" id=\"save-\(category.rawValue)\">Save \(Page.escape(category.displayName))</button></fieldset>")
            }
        }
        return p.document()
    }

    /// One category's checkboxes: the checked types are enabled, the others disabled.
    static func saveTypes(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        guard let category = form["category"].flatMap(DataCategory.init(rawValue:)) else {
            return Page.redirect("/settings", error: "Unknown category.")
        }
        let on = Set(category.dataTypes.map(\.name).filter { form["on-" + $0] == "1" })
        let types = category.dataTypes.map(\.name)
        var (disabled, enabled) = (ctx.settings.disabledTypes, ctx.settings.enabledTypes)
        (disabled, enabled) = enabling(types.filter { on.contains($0) }, disabled: disabled, enabled: enabled)
        let off = types.filter { !on.contains($0) && ctx.settings.isEnabled($0) }
        if !off.isEmpty { (disabled, enabled) = disabling(off, disabled: disabled, enabled: enabled) }
        try SettingsLoader.update(paths: ctx.paths, [("types.disabled", disabled.isEmpty ? nil : disabled.joined(separator: ",")),
                                                     ("types.enabled", enabled.isEmpty ? nil : enabled.joined(separator: ","))])
        return Page.redirect("/settings", ok: "Saved \(category.displayName).")
    }

    static let glucoseWords: [(GlucoseUnit, String)] = [
        (.mmolPerL, "mmol/L (for example 5.4)"),
        (.mgPerDL, "mg/dL (for example 98)"),
    ]

    /// The unit blood sugar is typed and shown in (`journal.glucose_unit`).
    static func saveGlucoseUnit(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        guard let unit = form["unit"].flatMap(GlucoseUnit.init(rawValue:)) else { return Page.redirect("/settings", error: "Choose mmol/L or mg/dL.") }
        try SettingsLoader.update(paths: ctx.paths, [("journal.glucose_unit", unit.rawValue)])
        return Page.redirect("/settings", ok: "Blood sugar is now typed and shown in \(unit.rawValue).")
    }

    static func saveFrequency(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        guard let f = form["frequency"].flatMap(SyncFrequency.init(rawValue:)) else { return Page.redirect("/settings", error: "Unknown choice.") }
        try SettingsLoader.update(paths: ctx.paths, [("sync.frequency", f.rawValue)])
        return Page.redirect("/settings", ok: "Saved how often data is sent.")
    }

    /// What happens to an imported export (`spool.after_import`): deleted at once, or kept in
    /// archive/ (the default). Exports already in archive/ stay until retention removes them.
    static func saveAfterImport(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        guard let after = form["after"].flatMap(AfterImport.init(rawValue:)) else { return Page.redirect("/settings", error: "Unknown choice.") }
        try SettingsLoader.update(paths: ctx.paths, [("spool.after_import", after == .archive ? nil : after.rawValue)])
        return Page.redirect("/settings", ok: after == .delete
            ? "Exports are now deleted as soon as their data is stored. Those already in archive/ go after \(ctx.settings.archiveDays) days."
            : "Imported exports are kept in archive/ again.")
    }

    /// Lock and unlock, as `healthspool lock` / `unlock` do: the flag file the daemon watches.
    static func setLock(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        if form["locked"] == "1" {
            try LockFlag.set(context: ctx)
            return Page.redirect("/settings", ok: "Locked: nothing is read or sent until you unlock.")
        }
        try LockFlag.clear(context: ctx)
        return Page.redirect("/settings", ok: "Unlocked.")
    }

    static func testGateway(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        do {
            guard let endpoint = try ctx.endpoint() else { return Page.redirect("/settings", error: "No receiving server is set.") }
            let v = GatewayProbe.run(endpoint: endpoint, envelope: ctx.envelope, now: DaemonClock.now())
            return v.ok ? Page.redirect("/settings", ok: "Connection works: " + v.message)
                : Page.redirect("/settings", error: "Connection failed: " + v.message)
        } catch {
            return Page.redirect("/settings", error: "The receiving server's settings are not usable: \(error)")
        }
    }
}
