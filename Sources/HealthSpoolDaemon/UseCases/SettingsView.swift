import HealthSpoolCore

/// What the web's settings page shows, from the settings and the lock flag: whether reading and
/// sending are paused, what happens to an imported export, how often data is sent, the blood
/// sugar unit, the receiving server's address (never its password or key), and which kinds of
/// data are kept and sent, by category.
public struct SettingsView: Sendable {
    /// One kind of data and whether it is kept and sent.
    public struct Kind: Sendable {
        public var name: String
        /// What the kind is, in a sentence.
        public var summary: String
        public var enabled: Bool
        /// Why the kind is kept here but not sent (`DataType.localOnlyReasons`); nil when it is
        /// sent, or not kept.
        public var notSentReason: String?
    }

    /// A category's kinds, in their order.
    public struct Category: Sendable {
        public var category: DataCategory
        public var kinds: [Kind]
    }

    public var locked: Bool
    public var afterImport: AfterImport
    public var archiveDays: Int
    public var syncFrequency: SyncFrequency
    public var glucoseUnit: GlucoseUnit
    /// The receiving server's address; nil when none is set.
    public var gatewayURL: String?
    public var categories: [Category]

    /// The view of `settings`, with `locked` whether the lock flag is set (`LockFlag.isSet`).
    public init(settings: Settings, locked: Bool) {
        self.locked = locked
        afterImport = settings.afterImport
        archiveDays = settings.archiveDays
        syncFrequency = settings.syncFrequency
        glucoseUnit = settings.glucoseUnit
        gatewayURL = settings.gatewayURL
        categories = DataCategory.allCases.map { c in
            Category(category: c, kinds: c.dataTypes.map {
                Kind(name: $0.name, summary: $0.summary, enabled: settings.isEnabled($0.name),
                     notSentReason: settings.isEnabled($0.name) && !settings.isSent($0.name) ? DataType.localOnlyReasons[$0.name] : nil)
            })
        }
    }
}
