import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Everything `healthspool status` shows, gathered from the store, the daemon's status file and
/// the settings, as JSON (`--json`) or text.
public struct StatusReport {
    public let json: JSONValue

    /// Gathers the report. Works whether or not the daemon runs. `configError` is the error of
    /// a config file that could not be read (the report then uses the built-in defaults, and the
    /// daemon keeps running on the configuration it read before). With `queuedCountLimit` (the
    /// web overview) the store's part is only the queued counts by type, each counted up to
    /// `queuedCountLimit + 1`, and the parked ones: bounded work on a store of millions of samples.
    /// `store`: a connection already open to read it on (else one is opened when the store exists).
    /// `liveStatus`: the daemon's status when it runs in this process (else its status file is read).
    public init(configuration: Configuration, configError: String? = nil, now: Timestamp = RealTimeClock.now(),
                queuedCountLimit: Int? = nil, store open: SampleStore? = nil, liveStatus: LiveStatus? = nil) throws {
        var members: [(String, JSONValue)] = []
        let pid = ProcessLock.holder(of: configuration.pidFile)
        var live: JSONValue = .null
        if let liveStatus {
            live = liveStatus.json
        } else if pid != nil, let text = try? FileSystem.readText(configuration.statusFile), let v = try? JSONParser.parse(text) {
            live = v
        }
        var daemon: [(String, JSONValue)] = [("running", .bool(pid != nil)), ("pid", pid.map { .number(Double($0)) } ?? .null)]
        daemon.append(("state", live["state"] ?? .string(pid == nil ? "stopped" : "unknown")))
        daemon.append(("statusLine", live["statusLine"] ?? .null))
        members.append(("daemon", .object(daemon)))
        // The config file as this command read it, and as the daemon last tried to reload it.
        let fileError = configError ?? live["configFileError"]?.stringValue
        members.append(("config", .object([
            ("error", fileError.map(JSONValue.string) ?? .null),
            ("daemonKeepsPreviousConfig", .bool(pid != nil && fileError != nil)),
        ])))
        let lock = Self.lockMember(configuration, live: pid != nil ? live["lock"] : nil)
        members.append(("locked", .bool(!(lock["holds"]?.arrayValue ?? []).isEmpty)))
        members.append(("lock", lock))

        members.append(("spool", Self.spoolMember(configuration.spool, stateDir: configuration.stateDir, live: live, now: RealTimeClock.now().millis)))
        // Whether the data is encrypted at rest (healthspool-security(7)); not on the web's overview.
        if queuedCountLimit == nil { members.append(("protection", configuration.protectionReport().json)) }

        var storeMembers: [(String, JSONValue)] = [("path", .string(configuration.storePath))]
        var lastImport: JSONValue = .null, lastSync: JSONValue = .null, lastSuccess: JSONValue = .null
        var lastFix: JSONValue = .null
        var quiet: [SourceFreshness] = []
        if let limit = queuedCountLimit, let store = open ?? (FileSystem.exists(configuration.storePath) ? try? SampleStore(path: configuration.storePath) : nil) {
            let queued: [String: Int] = try store.queuedCounts(upTo: limit), parked: [String: Int] = try store.deadLetterCounts()
            let queuedByType: [(String, JSONValue)] = queued.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number(Double($0.value))) }
            let parkedByType: [(String, JSONValue)] = parked.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number(Double($0.value))) }
            storeMembers.append(("queuedCountLimit", .number(Double(limit))))
            storeMembers.append(("queuedByType", .object(queuedByType)))
            storeMembers.append(("parkedByType", .object(parkedByType)))
            if let a = try store.syncHistory(limit: 1).first { lastSync = Self.json(a) }
            if let a = try store.lastSuccessfulSync() { lastSuccess = Self.json(a) }
            quiet = QuietSources.quiet(try store.freshness(), now: now.millis)
        } else if let store = open ?? (FileSystem.exists(configuration.storePath) ? try? SampleStore(path: configuration.storePath) : nil) {
            let (queued, synced, parked) = try store.snapshot { () throws(StoreError) in
                (try store.queuedCounts(), try store.syncedCounts(), try store.deadLetterCounts())
            }
            func sum(_ d: [String: Int]) -> JSONValue { .number(Double(d.values.reduce(0, +))) }
            storeMembers += [("samples", sum(queued.merging(synced, uniquingKeysWith: +).merging(parked, uniquingKeysWith: +))),
                             ("synced", sum(synced)), ("queued", sum(queued)), ("parked", sum(parked)),
                             ("queuedByType", .object(queued.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })),
                             ("parkedByType", .object(parked.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))]
            if let i = try store.imports(limit: 1).first { lastImport = Self.json(i) }
            if let a = try store.syncHistory(limit: 1).first { lastSync = Self.json(a) }
            if let a = try store.lastSuccessfulSync() { lastSuccess = Self.json(a) }
            if let f = try store.state("location.last_fix"), let v = try? JSONParser.parse(f) { lastFix = v }
            quiet = QuietSources.quiet(try store.freshness(), now: now.millis)
        } else {
            storeMembers += [("samples", .number(0)), ("synced", .number(0)), ("queued", .number(0)), ("parked", .number(0)),
                             ("queuedByType", .object([])), ("parkedByType", .object([]))]
        }
        members.append(("store", .object(storeMembers)))
        // Sources that delivered a type regularly and went quiet (issue 43), longest first.
        members.append(("quietSources", .array(quiet.map { f in
            .object([("source", .string(f.source)), ("type", .string(f.type)), ("newestSample", .string(Self.local(Timestamp(millis: f.newestMillis)))),
                     ("lastArrival", .string(Self.local(Timestamp(millis: f.arrivedMillis)))), ("line", .string(QuietSources.line(f, zone: Self.zone)))])
        })))
        members.append(("location", .object([("enabled", .bool(configuration.settings.locationEnabled)),
                                                    ("gpsd", .string(configuration.settings.locationGpsd)), ("lastFix", lastFix)])))

        // A sync in progress: per type, sent so far in this job and still queued.
        let queuedNow = Dictionary(uniqueKeysWithValues: (storeMembers.first { $0.0 == "queuedByType" }?.1.objectValue ?? [])
            .map { ($0.0, $0.1.intValue ?? 0) })
        let syncing = (live["syncing"]?.objectValue ?? []).map { type, sent -> JSONValue in
            .object([("type", .string(type)), ("sent", .number(Double(sent.intValue ?? 0))),
                     ("queued", .number(Double(queuedNow[type] ?? 0)))])
        }
        members.append(("syncing", .array(syncing)))

        var gateway: [(String, JSONValue)] = [
            ("url", configuration.settings.gatewayURL.map(JSONValue.string) ?? .null),
            ("format", .string(configuration.settings.gatewayFormat.rawValue)),
            ("lastAnswer", live["lastAnswer"] ?? .null),
            ("error", live["lastError"] ?? .null),
            ("stoppedReason", live["stoppedReason"] ?? .null),
            ("incident", Self.localIncident(live["incident"])),
            ("retryAt", Self.local(live["retryAt"])),
            ("retryInSeconds", live["retryAtMillis"]?.intValue.map { .number(Double(max(0, ($0 - Int(now.millis) + 999) / 1000))) } ?? .null),
        ]
        if configuration.settings.gatewayURL == nil {
            gateway.append(("hint", .string("no gateway set; run: healthspool gateway set https://HOST:PORT/PATH [--ca-file CA.pem]")))
        }
        members.append(("gateway", .object(gateway)))
        members.append(("ingest", Self.ingestMember(configuration, daemonRunning: pid != nil)))
        members.append(("web", Self.webMember(configuration, daemonRunning: pid != nil)))
        members.append(("lastImport", lastImport))
        members.append(("lastSync", lastSync))
        members.append(("lastSuccessfulSync", lastSuccess))
        members.append(("nextSync", Self.local(live["nextSync"])))
        members.append(("syncFrequency", .string(configuration.settings.syncFrequency.rawValue)))
        json = .object(members)
    }

    /// The outage record with its `since` in the machine's zone.
    static func localIncident(_ value: JSONValue?) -> JSONValue {
        guard case .object(let members)? = value else { return value ?? .null }
        return .object(members.map { $0.0 == "since" ? ($0.0, local($0.1)) : $0 })
    }

    /// The machine's zone (`TZ`, else /etc/localtime), in which times are shown.
    static let zone = (try? ZoneInfo.current(environment: ProcessEnvironment.current)) ?? .utc

    /// `t` in the machine's zone, RFC 3339 with its offset (`2026-11-22T19:30:00.000+01:00`).
    public static func local(_ t: Timestamp) -> String {
        Timestamp(millis: t.millis, utcOffsetSeconds: zone.offset(atUTCMillis: t.millis)).iso8601Local
    }

    /// A time the daemon wrote (RFC 3339, UTC) in the machine's zone; null stays null.
    static func local(_ value: JSONValue?) -> JSONValue {
        guard let text = value?.stringValue, let t = TimestampParser.parse(text) else { return value ?? .null }
        return .string(local(t))
    }

    static func json(_ i: ImportRecord) -> JSONValue {
        .object([("file", .string(i.file)), ("at", .string(Self.local(i.at))), ("format", i.format.map(JSONValue.string) ?? .null),
                 ("outcome", .string(i.outcome)), ("new", .number(Double(i.new))), ("duplicates", .number(Double(i.duplicates))),
                 ("revised", .number(Double(i.revised))), ("skipped", .number(Double(i.skipped))),
                 ("durationMs", .number(Double(i.durationMillis))), ("reason", i.reason.map(JSONValue.string) ?? .null)])
    }

    /// A sync attempt as JSON (also used by `healthspool history --json`).
    public static func json(_ a: SyncAttempt) -> JSONValue {
        .object([("at", .string(Self.local(a.started))), ("trigger", .string(a.trigger)), ("types", .array(a.types.map(JSONValue.string))),
                 ("outcome", .string(a.outcome)), ("count", .number(Double(a.count))), ("durationMs", .number(Double(a.durationMillis))),
                 ("httpStatus", a.httpStatus.map { .number(Double($0)) } ?? .null), ("error", a.error.map(JSONValue.string) ?? .null)])
    }

    /// The report as indented-free JSON text.
    public var jsonText: String {
        var w = JSONWriter()
        w.value(json)
        return w.text
    }

    /// The report for people.
    public var text: String {
        let j = json
        var lines: [String] = []
        let running = j["daemon"]?["running"]?.boolValue ?? false
        if running {
            let pid = j["daemon"]?["pid"]?.intValue ?? 0
            lines.append("daemon:      running (pid \(pid)), \(j["daemon"]?["state"]?.stringValue ?? "")")
            if let s = j["daemon"]?["statusLine"]?.stringValue { lines.append("             \(s)") }
        } else {
            lines.append("daemon:      not running (start it: systemctl --user start healthspool)")
        }
        for q in j["quietSources"]?.arrayValue ?? [] { if let l = q["line"]?.stringValue { lines.append("quiet:       \(l)") } }
        if let e = j["config"]?["error"]?.stringValue {
            let keeps = j["config"]?["daemonKeepsPreviousConfig"]?.boolValue == true
                ? "the daemon keeps running on its previous configuration; " : ""
            lines.append("config:      error: \(e) — \(keeps)fix the file (healthspool.conf(5))")
        }
        for s in j["syncing"]?.arrayValue ?? [] {
            let sent = s["sent"]?.intValue ?? 0, queued = s["queued"]?.intValue ?? 0
            let percent = sent + queued > 0 ? " (\(sent * 100 / (sent + queued)) %)" : ""
            lines.append("syncing:     \(s["type"]?.stringValue ?? "") \(sent) sent, \(queued) to go\(percent)")
        }
        if let f = j["location"]?["lastFix"], f != .null {
            lines.append("location:    last fix \(f["latitude"]?.stringValue ?? ""), \(f["longitude"]?.stringValue ?? "") at \(f["at"]?.stringValue ?? "")")
        } else if j["location"]?["enabled"]?.boolValue == true {
            lines.append("location:    on, no fix recorded yet (gpsd at \(j["location"]?["gpsd"]?.stringValue ?? ""))")
        }
        if let lock = j["lock"] { lines += Self.lockLines(lock, daemonRunning: running) }
        let spool = j["spool"]!
        lines += Self.spoolLines(spool)
        let store = j["store"]!
        lines.append("store:       \(store["path"]?.stringValue ?? "")")
        if let protection = j["protection"] {
            for place in Self.protectionGroups(protection) { lines.append("protection:  \(place)") }
            if let warning = protection["warning"]?.stringValue { lines.append("             warning: \(warning)") }
        }
        lines.append("samples:     \(store["samples"]?.intValue ?? 0) stored, \(store["synced"]?.intValue ?? 0) synced, \(store["queued"]?.intValue ?? 0) queued, \(store["parked"]?.intValue ?? 0) parked")
        let gw = j["gateway"]!
        if let url = gw["url"]?.stringValue {
            var g = "gateway:     \(url) (\(gw["format"]?.stringValue ?? ""))"
            if let a = gw["lastAnswer"]?.stringValue { g += ", last answer \(a)" }
            lines.append(g)
            let wait = gw["retryInSeconds"]?.intValue.map { "retrying in \($0) s" }
            if let r = gw["stoppedReason"]?.stringValue { lines.append("             stopped: \(r)") }
            else if let e = gw["error"]?.stringValue ?? gw["incident"]?["message"]?.stringValue {
                lines.append("             error: \(e)\(wait.map { " (\($0))" } ?? "")")
            } else if let wait { lines.append("             \(wait)") }
        } else {
            lines.append("gateway:     not set — run: healthspool gateway set https://HOST:PORT/PATH [--ca-file CA.pem]")
        }
        if let web = j["web"], let line = Self.webLine(web) { lines.append(line) }
        if let ingest = j["ingest"] { lines += Self.ingestLines(ingest) }
        if let s = j["lastSync"], s != .null {
            lines.append("last sync:   \(s["at"]?.stringValue ?? "") \(s["outcome"]?.stringValue ?? ""), \(s["count"]?.intValue ?? 0) sample(s) of \(s["types"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ",") ?? "") (\(s["trigger"]?.stringValue ?? ""))\(s["error"]?.stringValue.map { ": " + $0 } ?? "")")
        } else {
            lines.append("last sync:   never")
        }
        if let s = j["lastSuccessfulSync"], s != .null { lines.append("last ok:     \(s["at"]?.stringValue ?? "")") }
        if let i = j["lastImport"], i != .null {
            lines.append("last import: \(i["file"]?.stringValue ?? "") at \(i["at"]?.stringValue ?? ""): \(i["outcome"]?.stringValue ?? ""), \(i["new"]?.intValue ?? 0) new, \(i["duplicates"]?.intValue ?? 0) duplicate\(i["reason"]?.stringValue.map { " — " + $0 } ?? "")")
        }
        if let n = j["nextSync"]?.stringValue { lines.append("next sync:   \(n)") }
        lines.append("frequency:   \(j["syncFrequency"]?.stringValue ?? "")")
        let byType = store["queuedByType"]?.objectValue ?? []
        if !byType.isEmpty {
            lines.append("queued by type:")
            let width = byType.map(\.0.count).max() ?? 0
            for (k, v) in byType { lines.append("  \(k.padding(width))  \(v.intValue ?? 0)") }
        }
        return lines.joined(separator: "\n")
    }
}

extension StatusReport {
    /// The places of `protection` grouped by verdict: "store, WAL: not encrypted".
    static func protectionGroups(_ protection: JSONValue) -> [String] {
        var order: [String] = []
        var roles: [String: [String]] = [:]
        for place in protection["places"]?.arrayValue ?? [] {
            let text = place["text"]?.stringValue ?? "", role = place["role"]?.stringValue ?? ""
            if roles[text] == nil { order.append(text) }
            roles[text, default: []].append(role)
        }
        return order.map { "\(roles[$0]!.joined(separator: ", ")): \($0)" }
    }
}
