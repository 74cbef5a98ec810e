/// Where a setting's effective value came from, for `healthspool config show` and the
/// `file:line` of `healthspool config check`.
public enum SettingOrigin: Sendable, Equatable {
    /// The built-in default (`SettingKey.defaultText`).
    case builtIn
    /// A line of a config file: the system file (/etc) or the user's.
    case file(layer: SettingsLayer, path: String, line: Int)
    /// An environment variable (`SettingKey.environmentName`).
    case environment(String)
    /// `--set KEY=VALUE` on the command line.
    case commandLine

    /// As shown to the user: `default`, `/etc/healthspool/healthspool.conf:12`,
    /// `HEALTHSPOOL_GATEWAY_URL`, `--set`.
    public var text: String {
        switch self {
        case .builtIn: "default"
        case let .file(_, path, line): "\(path):\(line)"
        case let .environment(name): "environment \(name)"
        case .commandLine: "--set"
        }
    }

    /// One word for JSON: default, system, user, environment or command-line.
    public var kind: String {
        switch self {
        case .builtIn: "default"
        case let .file(layer, _, _): layer.rawValue
        case .environment: "environment"
        case .commandLine: "command-line"
        }
    }
}

/// Which config file a setting was read from.
public enum SettingsLayer: String, Sendable, Equatable {
    /// /etc/healthspool/healthspool.conf (or `$HEALTHSPOOL_SYSTEM_CONFIG`).
    case system
    /// ~/.config/healthspool/healthspool.conf.
    case user
}

/// One config file to read: its path, text and layer.
public struct SettingsFile: Sendable {
    public var path: String
    public var text: String
    public var layer: SettingsLayer

    public init(path: String, text: String, layer: SettingsLayer) {
        self.path = path
        self.text = text
        self.layer = layer
    }
}

/// A setting's effective value as written (trimmed, quotes removed) and where it came from.
public struct SettingSource: Sendable, Equatable {
    public var value: String
    public var origin: SettingOrigin

    public init(value: String, origin: SettingOrigin) {
        self.value = value
        self.origin = origin
    }
}

/// Settings together with where each key that is not at its default came from.
public struct ResolvedSettings: Sendable {
    public var settings = Settings()
    /// By key; a key absent here has its built-in default.
    public var sources: [String: SettingSource] = [:]

    public init() {}

    /// Where `key` came from, `.builtIn` when nothing set it.
    public func origin(of key: String) -> SettingOrigin { sources[key]?.origin ?? .builtIn }

    /// The value of `key` where it was set, as the setting reads it (`Hourly` → `hourly`), else
    /// its documented default.
    public func valueText(of key: SettingKey) -> String { sources[key.name].map { key.normalized($0.value) } ?? key.defaultText }
}

extension SettingOrigin {
    /// The origin as a `SettingsError` has always named it: `path:line`, the variable's name,
    /// or `command line`.
    var errorOrigin: String {
        switch self {
        case .builtIn: "default"
        case let .file(_, path, line): "\(path):\(line)"
        case let .environment(name): name
        case .commandLine: "command line"
        }
    }
}
