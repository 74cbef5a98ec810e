/// One desktop notification as `org.freedesktop.Notifications.Notify` takes it (Desktop
/// Notifications Specification 1.2): summary, body, action buttons and hints.
public struct NotificationRequest: Sendable, Equatable {
    /// How insistent the notification is (the `urgency` hint).
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    /// One button: the key reported back in `ActionInvoked`, and its label.
    public struct Action: Sendable, Equatable {
        public var key: String
        public var label: String
        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    public var appName: String
    public var summary: String
    public var body: String
    public var actions: [Action]
    public var urgency: Urgency
    public var category: String
    public var desktopEntry: String
    public var icon: String
    /// Milliseconds; -1 lets the notification daemon decide, 0 never expires.
    public var expireTimeoutMillis: Int32

    public init(summary: String, body: String, actions: [Action] = [], urgency: Urgency = .normal,
                appName: String = "healthspool", category: String = "reminder", desktopEntry: String = "healthspool",
                icon: String = "", expireTimeoutMillis: Int32 = -1) {
        self.appName = appName
        self.summary = summary
        self.body = body
        self.actions = actions
        self.urgency = urgency
        self.category = category
        self.desktopEntry = desktopEntry
        self.icon = icon
        self.expireTimeoutMillis = expireTimeoutMillis
    }

    public static let interface = "org.freedesktop.Notifications"
    public static let objectPath = "/org/freedesktop/Notifications"
    /// The signature of `Notify`'s arguments.
    public static let signature = "susssasa{sv}i"

    /// `Notify`'s arguments: app_name, replaces_id (0: a new notification), app_icon, summary,
    /// body, actions (key, label, key, label, …), hints, expire_timeout.
    ///
    /// The body is escaped for the markup many notification daemons read in it (`&`, `<`, `>`),
    /// so a reminder named "Iron & B12" shows as written. NUL characters, which D-Bus strings
    /// cannot hold, become U+FFFD.
    public var arguments: [BusValue] {
        [
            .string(Self.clean(appName)), .uint32(0), .string(Self.clean(icon)), .string(Self.clean(summary)),
            .string(Self.escapeMarkup(Self.clean(body))),
            .strings(actions.flatMap { [Self.clean($0.key), Self.clean($0.label)] }),
            .variantDictionary([
                ("urgency", .byte(urgency.rawValue)),
                ("desktop-entry", .string(Self.clean(desktopEntry))),
                ("category", .string(Self.clean(category))),
            ]),
            .int32(expireTimeoutMillis),
        ]
    }

    static func clean(_ text: String) -> String {
        text.contains("\u{0}") ? String(text.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }) : text
    }

    /// The body markup of the specification is a small subset of XML: escape what would start it.
    public static func escapeMarkup(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}
