#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore

/// The directories healthspool uses, resolved from the environment (XDG base directories).
public struct Paths: Sendable, Equatable {
    public var home: String
    /// `$XDG_CONFIG_HOME/healthspool` (default `~/.config/healthspool`).
    public var configDir: String
    /// `$XDG_RUNTIME_DIR/healthspool`, or the state dir when there is no runtime dir.
    public var runtimeDir: String
    /// The system-wide defaults file.
    public var systemConfigFile: String
    let environment: [String: String]

    /// Resolves from `environment` (normally the process environment).
    public init(environment: [String: String] = ProcessEnvironment.current) {
        self.environment = environment
        home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.passwdHome() ?? "/"
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        configDir = configHome + "/healthspool"
        let stateHome = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        if let rt = environment["XDG_RUNTIME_DIR"], rt.hasPrefix("/") {
            runtimeDir = rt + "/healthspool"
        } else {
            runtimeDir = stateHome + "/healthspool/run"
        }
        systemConfigFile = environment["HEALTHSPOOL_SYSTEM_CONFIG"] ?? "/etc/healthspool/healthspool.conf"
    }

    /// The user's config file.
    public var userConfigFile: String { configDir + "/healthspool.conf" }

    /// Expands `~`, `$HOME`, `$XDG_STATE_HOME`, `$XDG_CONFIG_HOME` and `$XDG_RUNTIME_DIR` in a setting.
    public func expand(_ path: String) -> String {
        var p = path
        if p == "~" { p = home } else if p.hasPrefix("~/") { p = home + p.dropFirst(1) }
        let stateHome = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        for (name, value) in [("$XDG_STATE_HOME", stateHome), ("$XDG_CONFIG_HOME", configHome), ("$HOME", home),
                              ("$XDG_RUNTIME_DIR", environment["XDG_RUNTIME_DIR"] ?? runtimeDir)] {
            p = p.split(separator: name, omittingEmptySubsequences: false).joined(separator: value)
        }
        return p
    }

    static func passwdHome() -> String? {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// The login name of the current user.
    public static func loginName() -> String {
        if let pw = getpwuid(getuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return "uid\(getuid())"
    }
}

/// The process environment as a dictionary.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}
