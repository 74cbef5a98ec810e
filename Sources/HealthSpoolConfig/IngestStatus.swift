import HealthSpoolCore
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

/// The ingest endpoint's state as the running daemon last saw it, for `healthspool status`,
/// `config check` and the web's settings page: a small JSON file (0600) in the runtime
/// directory, written by the endpoint at each change (as `WebStatus` for the web interface).
public struct IngestStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Serving at `url`.
        case listening
        /// Not serving: `problem` says why (the port taken, the address missing); tried again
        /// every `retrySeconds`.
        case unavailable
        /// Not serving until a restart: `problem` says why (the certificate cannot be read).
        case failed
    }
    public var url: String
    public var state: State
    public var problem: String?
    /// The uid of the program holding the port, when that is the problem and the kernel says.
    public var holderUID: UInt32?
    /// Seconds between two tries while `unavailable`.
    public var retrySeconds: Int?

    public init(url: String, state: State, problem: String? = nil, holderUID: UInt32? = nil, retrySeconds: Int? = nil) {
        self.url = url
        self.state = state
        self.problem = problem
        self.holderUID = holderUID
        self.retrySeconds = retrySeconds
    }

    public static func path(runtimeDir: String) -> String { runtimeDir + "/ingest.json" }

    /// The status as JSON: `holder` names the account (`user`, null when it has no name).
    public var json: JSONValue {
        let holder: JSONValue = holderUID.map { uid in
            .object([("uid", .number(Double(uid))), ("user", UserAccount.name(of: uid).map(JSONValue.string) ?? .null)])
        } ?? .null
        return .object([("url", .string(url)), ("state", .string(state.rawValue)), ("problem", problem.map(JSONValue.string) ?? .null),
                        ("holder", holder), ("retrySeconds", retrySeconds.map { .number(Double($0)) } ?? .null)])
    }

    public func write(file: String) {
        var w = JSONWriter()
        w.value(json)
        try? FileSystem.writeAtomically(file, Array(w.text.utf8), mode: 0o600)
    }

    public static func read(file: String) -> IngestStatus? {
        guard let text = try? FileSystem.readText(file), let v = try? JSONParser.parse(text),
              let url = v["url"]?.stringValue, let state = v["state"]?.stringValue.flatMap(State.init(rawValue:)) else { return nil }
        return IngestStatus(url: url, state: state, problem: v["problem"]?.stringValue,
                            holderUID: v["holder"]?["uid"]?.intValue.flatMap { UInt32(exactly: $0) },
                            retrySeconds: v["retrySeconds"]?.intValue)
    }

    public static func remove(file: String) { unlink(file) }

    /// The uid of the program listening on `listen`'s port, on its address or on every address
    /// (0.0.0.0, which takes the port on each); nil when none is found (IPv6 is not asked).
    public static func portHolder(_ listen: ListenAddress) -> UInt32? {
        guard !listen.isIPv6 else { return nil }
        for host in [listen.host, "0.0.0.0"] {
            if let uid = SocketOwner.listenerUID(address: host, port: listen.port) { return uid }
        }
        return nil
    }

    /// What keeps the endpoint from listening on `listen` when `holder` has its port.
    public static func takenProblem(_ listen: ListenAddress, holder: UInt32?) -> String {
        let who = holder.map { UserAccount.describe($0) + "'s program" } ?? "another program"
        return "port \(listen.port) of \(listen.host) is held by \(who)"
    }

    /// The endpoint's state now: the running daemon's word (nil: not written yet, starting);
    /// when the daemon does not run, `stopped` with another program holding the port said as
    /// its problem.
    public static func current(_ configuration: Configuration, daemonRunning: Bool) -> (state: String, status: IngestStatus?) {
        guard let listen = configuration.settings.ingestListen, let url = configuration.ingestURL else { return ("off", nil) }
        if daemonRunning {
            let live = read(file: path(runtimeDir: configuration.runtimeDir))
            return (live?.state.rawValue ?? "starting", live)
        }
        if let uid = portHolder(listen), uid != getuid() {
            return ("stopped", IngestStatus(url: url, state: .unavailable, problem: takenProblem(listen, holder: uid), holderUID: uid))
        }
        return ("stopped", nil)
    }
}
