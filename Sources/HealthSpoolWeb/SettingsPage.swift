import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolGateway
import HealthSpoolLinux
import Hummingbird

/// Settings (`/settings`, `settings.mustache`) from `SettingsView`: which kinds of data are kept
/// and sent (by category, with what each is), how often they are sent, the receiving server
/// (never its password or key) with Test connection, and the lock. Changes are written to the
/// user's config file, which the daemon reloads at once.
struct SettingsPage: Sendable {
    /// A choice of a list or a radio group.
    struct Choice: Sendable {
        let id: String
        let value: String
        let label: String
        let selected: Bool
    }

    /// A category's form: its kinds as checkboxes.
    struct Category: Sendable {
        struct Kind: Sendable {
            let id: String
            let name: String
            let label: String
            let summary: String
            let checked: Bool
            /// Why it is kept but not sent, in one line; nil when it is sent.
            let notSent: String?
        }

        /// The category's raw value (the form's `category`).
        let category: String
        let title: String
        let kinds: [Kind]
    }

    let locked: Bool
    let deleteAfterImport: Bool
    let archiveDays: Int
    let frequencies: [Choice]
    let glucoseUnits: [Choice]
    let gatewayURL: String?
    let categories: [Category]
    /// The ingest endpoint's state; nil when it is off.
    var ingest: IngestSection?

    static let frequencyWords: [(SyncFrequency, String)] = [
        (.realtime, "As soon as there is new data"), (.hourly, "Once an hour"), (.daily, "Once a day"),
        (.manual, "Only when I press Send now (on the Sending page)"),
    ]

    init(_ view: SettingsView) {
        locked = view.locked
        deleteAfterImport = view.afterImport == .delete
        archiveDays = view.archiveDays
        frequencies = Self.frequencyWords.map { Choice(id: "", value: $0.0.rawValue, label: $0.1, selected: $0.0 == view.syncFrequency) }
        glucoseUnits = Self.glucoseWords.map {
            Choice(id: "glucose-" + ($0.0 == .mmolPerL ? "mmol" : "mg"), value: $0.0.rawValue, label: $0.1, selected: $0.0 == view.glucoseUnit)
        }
        gatewayURL = view.gatewayURL
        categories = view.categories.map { c in
            Category(category: c.category.rawValue, title: c.category.displayName, kinds: c.kinds.map {
                Category.Kind(id: "t-" + $0.name, name: $0.name, label: Format.typeName($0.name), summary: $0.summary, checked: $0.enabled,
                              notSent: $0.notSentReason.map { "Kept on this computer, not sent: \($0)." })
            })
        }
    }

    static func render(_ ctx: Configuration, query: Form, csrf: FormKeys) -> String {
        var page = SettingsPage(SettingsView(settings: ctx.settings, locked: LockFlag.isSet(context: ctx)))
        page.ingest = IngestSection(ctx)
        return WebTemplates.render(PageFrame(title: "Settings", path: "/settings", keys: csrf, notice: Notice(query, back: "/settings"), page: page),
                                   .settings)
    }

    /// The data types' form of one category: its `category`, and a checkbox per type named
    /// `on-<type>` (value 1), sent only when ticked.
    struct TypeFields: Decodable, Sendable {
        var category: String?
        /// The types whose box was ticked (sent as `on-<type>=1`).
        var ticked: Set<String>

        private struct Name: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let form = try decoder.container(keyedBy: Name.self)
            category = try form.decodeIfPresent(String.self, forKey: Name(stringValue: "category"))
            ticked = []
            for key in form.allKeys where key.stringValue.hasPrefix("on-") {
                if try form.decode(String.self, forKey: key) == "1" { ticked.insert(String(key.stringValue.dropFirst(3))) }
            }
        }
    }

    /// One category's checkboxes: the checked types are enabled, the others disabled.
    static func saveTypes(_ ctx: Configuration, _ form: TypeFields) throws -> Response {
        guard let category = form.category.flatMap(DataCategory.init(rawValue:)) else {
            return Page.redirect("/settings", error: "Unknown category.")
        }
        let on = Set(category.dataTypes.map(\.name).filter { form.ticked.contains($0) })
        let types = category.dataTypes.map(\.name)
        var (disabled, enabled) = (ctx.settings.disabledTypes, ctx.settings.enabledTypes)
        (disabled, enabled) = enabling(types.filter { on.contains($0) }, disabled: disabled, enabled: enabled)
        let off = types.filter { !on.contains($0) && ctx.settings.isEnabled($0) }
        if !off.isEmpty { (disabled, enabled) = disabling(off, disabled: disabled, enabled: enabled) }
        // A checked box keeps a kind; it never starts sending a local-only one (positions,
        // routes): that takes naming it (`healthspool types enable workoutRoute`).
        let namedBefore = Set(ctx.settings.enabledTypes.map(DataType.canonicalName))
        enabled.removeAll { DataType.localOnly.contains($0) && !namedBefore.contains($0) && !disabled.contains(DataType.category(of: $0).rawValue) }
        try SettingsLoader.update(paths: ctx.paths, [("types.disabled", disabled.isEmpty ? nil : disabled.joined(separator: ",")),
                                                     ("types.enabled", enabled.isEmpty ? nil : enabled.joined(separator: ","))])
        return Page.redirect("/settings", ok: "Saved \(category.displayName).")
    }

    static let glucoseWords: [(GlucoseUnit, String)] = [
        (.mmolPerL, "mmol/L (for example 5.4)"),
        (.mgPerDL, "mg/dL (for example 98)"),
    ]

    /// The fields of the settings page's one-choice forms (blood sugar unit, how often data is
    /// sent, what happens after an import, the lock), decoded by Hummingbird's
    /// `URLEncodedFormDecoder` (`Form.decode`); the data types' form is `TypeFields`.
    struct Fields: Decodable, Sendable {
        var unit: String?
        var frequency: String?
        var after: String?
        var locked: String?
    }

    /// The unit blood sugar is typed and shown in (`journal.glucose_unit`).
    static func saveGlucoseUnit(_ ctx: Configuration, _ form: Fields) throws -> Response {
        guard let unit = form.unit.flatMap(GlucoseUnit.init(rawValue:)) else { return Page.redirect("/settings", error: "Choose mmol/L or mg/dL.") }
        try SettingsLoader.update(paths: ctx.paths, [("journal.glucose_unit", unit.rawValue)])
        return Page.redirect("/settings", ok: "Blood sugar is now typed and shown in \(unit.rawValue).")
    }

    static func saveFrequency(_ ctx: Configuration, _ form: Fields) throws -> Response {
        guard let f = form.frequency.flatMap(SyncFrequency.init(rawValue:)) else { return Page.redirect("/settings", error: "Unknown choice.") }
        try SettingsLoader.update(paths: ctx.paths, [("sync.frequency", f.rawValue)])
        return Page.redirect("/settings", ok: "Saved how often data is sent.")
    }

    /// What happens to an imported export (`spool.after_import`): deleted at once, or kept in
    /// archive/ (the default). Exports already in archive/ stay until retention removes them.
    static func saveAfterImport(_ ctx: Configuration, _ form: Fields) throws -> Response {
        guard let after = form.after.flatMap(AfterImport.init(rawValue:)) else { return Page.redirect("/settings", error: "Unknown choice.") }
        try SettingsLoader.update(paths: ctx.paths, [("spool.after_import", after == .archive ? nil : after.rawValue)])
        return Page.redirect("/settings", ok: after == .delete
            ? "Exports are now deleted as soon as their data is stored. Those already kept go after \(ctx.settings.archiveDays) days."
            : "Imported exports are kept for \(ctx.settings.archiveDays) days again.")
    }

    /// Lock and unlock, as `healthspool lock` / `unlock` do: the flag file the daemon watches.
    static func setLock(_ ctx: Configuration, _ form: Fields) throws -> Response {
        if form.locked == "1" {
            try LockFlag.set(context: ctx)
            return Page.redirect("/settings", ok: "Locked: nothing is read or sent until you unlock.")
        }
        try LockFlag.clear(context: ctx)
        return Page.redirect("/settings", ok: "Unlocked.")
    }

    static func testGateway(_ ctx: Configuration, _ form: Form) throws -> Response {
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
