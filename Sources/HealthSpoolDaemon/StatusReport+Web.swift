import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

/// The web interface's state as the running daemon last saw it, for `healthspool status`: a
/// small JSON file (0600) in the runtime directory, written by the web interface.
public struct WebStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Serving at `url`.
        case listening
        /// Not serving: `problem` says why (a port in use); tried again every web.retry_seconds.
        case unavailable
        /// Not serving until a restart: `problem` says why (the web secret cannot be read).
        case failed
    }
    public var url: String
    public var state: State
    public var problem: String?

    public init(url: String, state: State, problem: String?) {
        self.url = url
        self.state = state
        self.problem = problem
    }

    public static func path(runtimeDir: String) -> String { runtimeDir + "/web.json" }

    public func write(file: String) {
        var w = JSONWriter()
        w.value(.object([("url", .string(url)), ("state", .string(state.rawValue)), ("problem", problem.map(JSONValue.string) ?? .null)]))
        try? FileSystem.writeAtomically(file, Array(w.text.utf8), mode: 0o600)
    }

    public static func read(file: String) -> WebStatus? {
        guard let text = try? FileSystem.readText(file), let v = try? JSONParser.parse(text),
              let url = v["url"]?.stringValue, let state = v["state"]?.stringValue.flatMap(State.init(rawValue:)) else { return nil }
        return WebStatus(url: url, state: state, problem: v["problem"]?.stringValue)
    }

    public static func remove(file: String) { unlink(file) }
}

extension StatusReport {
    /// The `web` member: off, or the address it serves (or why it does not) while the daemon runs.
    static func webMember(_ configuration: Configuration, daemonRunning: Bool) -> JSONValue {
        guard configuration.settings.webEnabled else { return .object([("enabled", .bool(false))]) }
        let url = "http://\(UserLoopbackAddress.forUser(getuid())):\(configuration.settings.webPort)/"
        let live = daemonRunning ? WebStatus.read(file: WebStatus.path(runtimeDir: configuration.runtimeDir)) : nil
        return .object([("enabled", .bool(true)), ("url", .string(live?.url ?? url)),
                        ("state", .string(live?.state.rawValue ?? (daemonRunning ? "starting" : "stopped"))),
                        ("problem", live?.problem.map(JSONValue.string) ?? .null)])
    }

    /// The `web:` line of the text report.
    static func webLine(_ web: JSONValue) -> String? {
        guard web["enabled"]?.boolValue == true else { return nil }
        let url = web["url"]?.stringValue ?? ""
        switch web["state"]?.stringValue {
        case "listening": return "web:         \(url) (open it with: healthspool ui)"
        case "unavailable", "failed": return "web:         not available: \(web["problem"]?.stringValue ?? "unknown")"
        default: return nil
        }
    }
}
