import HealthSpoolConfig
import HealthSpoolCore

extension StatusReport {
    /// The `ingest` member: off, or the endpoint's address, certificate and token file with
    /// whether it serves: `state` listening, unavailable (with the `problem`, the `holder` of
    /// the port and `retrySeconds`), failed, starting or stopped.
    static func ingestMember(_ configuration: Configuration, daemonRunning: Bool) -> JSONValue {
        var members = configuration.ingestJSON().objectValue ?? []
        guard configuration.ingestURL != nil else { return .object(members) }
        let (state, live) = IngestStatus.current(configuration, daemonRunning: daemonRunning)
        let liveMembers = live?.json.objectValue ?? []
        func value(_ key: String) -> JSONValue { liveMembers.first { $0.0 == key }?.1 ?? .null }
        members += [("state", .string(state)), ("serving", .bool(state == "listening")), ("problem", value("problem")),
                    ("holder", value("holder")), ("retrySeconds", value("retrySeconds"))]
        return .object(members)
    }

    /// The `ingest:` lines of the text report: the address and fingerprint while it serves;
    /// otherwise plainly that it does not, why, and who holds the port.
    static func ingestLines(_ ingest: JSONValue) -> [String] {
        guard ingest["enabled"]?.boolValue == true else { return [] }
        let url = ingest["url"]?.stringValue ?? ""
        let fingerprint = "             SHA-256 fingerprint \(ingest["fingerprintSHA256"]?.stringValue ?? "not made yet (run: healthspool ingest)")"
        switch ingest["state"]?.stringValue {
        case "unavailable", "failed":
            var line = "ingest:      not serving (\(url)): \(ingest["problem"]?.stringValue ?? "unknown")"
            if let seconds = ingest["retrySeconds"]?.intValue { line += "; tried again every \(seconds) s" }
            return [line]
        case "stopped":
            var lines = ["ingest:      \(url), not serving while the daemon is stopped (token in \(ingest["tokenFile"]?.stringValue ?? ""))"]
            if let problem = ingest["problem"]?.stringValue { lines.append("             warning: \(problem); the daemon could not listen there") }
            return lines + [fingerprint]
        case "starting":
            return ["ingest:      \(url), starting (token in \(ingest["tokenFile"]?.stringValue ?? ""))", fingerprint]
        default:
            return ["ingest:      \(url) (token in \(ingest["tokenFile"]?.stringValue ?? ""))", fingerprint]
        }
    }
}
