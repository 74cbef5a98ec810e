/// What happens to a spool file after its samples are committed.
public enum AfterImport: String, CaseIterable, Sendable {
    case archive
    case delete
}

/// The global sync frequency (BGTaskScheduler in the origin design).
public enum SyncFrequency: String, CaseIterable, Sendable {
    case realtime
    case hourly
    case daily
    case manual
}

/// Whether secrets go to the session's Secret Service (`secrets.keyring`).
public enum KeyringUse: String, CaseIterable, Sendable {
    /// The Secret Service when one runs on the session bus; else files.
    case auto
    /// Files and systemd credentials only.
    case off
}

/// How the gateway authenticates requests.
public enum GatewayAuth: String, CaseIterable, Sendable {
    case none
    case apiKey = "api-key"
    case basic
    case bearer
}

/// Every setting, as plain values with defaults. Read by `SettingsReader`; each key is documented
/// once, in `SettingKey.all`, which also feeds healthspool.conf(5).
public struct Settings: Sendable, Equatable {
    public var spoolDir = "~/HealthSpool"
    public var afterImport = AfterImport.archive
    /// Whether the user's logind session lock locks the daemon as the lock flag does.
    public var lockFollowSession = SessionFollow.auto
    /// Whether secrets are kept in the session's Secret Service (`secrets.keyring`).
    public var secretsKeyring = KeyringUse.auto
    public var stateDir = "$XDG_STATE_HOME/healthspool"
    public var spoolRetryBaseSeconds = 10
    public var spoolRetryMaxSeconds = 600
    public var gatewayURL: String? = nil
    public var gatewayFormat = GatewayFormat.json
    public var gatewayTopic = "health-samples"
    public var gatewayCluster = "cluster"
    public var gatewayCAFile: String? = nil
    public var gatewayPin: String? = nil
    public var gatewayClientCert: String? = nil
    public var gatewayClientKey: String? = nil
    public var gatewayAuth = GatewayAuth.none
    public var gatewayAPIKeyHeader = "X-API-Key"
    public var gatewayCredentialsFile: String? = nil
    public var batchSize = 100
    /// Samples per request at most while a type's queue holds more than `batchSize` (`BatchSizing`).
    public var backlogBatchSize = 500
    public var requestTimeoutSeconds = 30
    public var connectTimeoutSeconds = 10
    public var gzip = false
    /// The largest request body sent, uncompressed (`gateway.max_body_bytes`).
    public var maxBodyBytes = 1 << 20
    public var keepAlive = true
    public var senders = 2
    public var userId: String? = nil
    public var deviceId: String? = nil
    public var syncFrequency = SyncFrequency.realtime
    public var throttleSeconds = 60
    /// Seconds over which a fleet's fixed-time sends spread (start-up, schedule, midnight scores).
    public var spreadSeconds = 60
    public var retryBaseSeconds = 1
    public var retryMaxSeconds = 300
    public var disabledTypes: [String] = []
    /// Types enabled although their category is disabled (`types enable heartRate` after
    /// `types disable cardiovascular`).
    public var enabledTypes: [String] = []
    public var hourlyTypes: [String] = []
    public var immediateTypes: [String] = []
    /// Synced samples older than this are pruned; 0 keeps them whatever their age.
    public var retentionDays = 0
    public var storeMaxMB = 1024
    /// The most samples one full export may mark deleted, in percent of the stored samples of
    /// its range (`DeletionInference`); more wait for `healthspool deletions apply`.
    public var deletionBoundPercent = 1
    /// Archived spool files older than this are removed; 0 keeps them whatever their age.
    public var archiveDays = 30
    /// The archive's size limit, oldest files removed first; 0 for none.
    public var archiveMaxMB = 1024
    /// Files in failed/ (with their `.reason`) older than this are removed; 0 keeps them.
    public var failedDays = 90
    public var logLevel = "info"
    /// Seconds between retries after the gateway refused the credentials; the last repeats.
    public var retryAuthSeconds = [60, 300, 900]
    /// Whether the daemon serves the local web interface (`healthspool ui`).
    public var webEnabled = true
    /// The port of the web interface, on the user's own loopback address (`UserLoopbackAddress`).
    public var webPort = 8484
    /// Seconds between two tries to listen while the web port is used by another program.
    public var webRetrySeconds = 60
    /// The largest export the web interface's import accepts, in MiB (`web.upload_max_mb`).
    public var webUploadMaxMB = 2048
    /// Where the daemon writes its Prometheus metrics for node_exporter's textfile collector;
    /// nil: not written (`metrics.textfile`).
    public var metricsTextfile: String?
    /// The person's name on the doctor's summary (`report.name`).
    public var reportName: String?
    /// Sources in the order they count where they overlap (day totals), matched in names and devices.
    public var sourcePriority = SourcePriority.standard
    /// The unit blood glucose is typed and shown in (`journal.glucose_unit`).
    public var glucoseUnit = GlucoseUnit.mmolPerL
    /// The location keep-alive log (opt-in): whether the daemon records positions from gpsd.
    public var locationEnabled = false
    public var locationIntervalSeconds = 300
    public var locationRetrySeconds = 30
    public var locationGpsd = "127.0.0.1:2947"
    /// The ingest endpoint's address (`ingest.listen`); nil: no endpoint (the default).
    public var ingestListen: ListenAddress? = nil
    /// The file holding the ingest endpoint's token; nil: `ingest-token` in the state directory.
    public var ingestTokenFile: String? = nil
    /// A given certificate and key for the endpoint; nil: the daemon's own self-signed one.
    public var ingestCertFile: String? = nil
    public var ingestKeyFile: String? = nil
    /// The largest request body the endpoint accepts, in bytes.
    public var ingestMaxBodyBytes = 64 << 20
    /// Connections served at once (`IngestSlots` decides who gets one).
    public var ingestMaxConnections = 8
    /// Seconds between two tries to listen while the ingest address cannot be used (its port
    /// taken by another program, the address not yet on the machine).
    public var ingestRetrySeconds = 60

    public init() {}

    /// Whether a type (registry name, HealthKit identifier or any other name) is enabled: not
    /// disabled by name, and neither its category (`DataType.category(of:)`, which covers
    /// identifiers outside the registry by family) is disabled unless the type is enabled by name.
    public func isEnabled(_ type: String) -> Bool {
        let name = DataType.canonicalName(type)
        if disabledTypes.contains(where: { DataType.canonicalName($0) == name }) { return false }
        if enabledTypes.contains(where: { DataType.canonicalName($0) == name }) { return true }
        let category = DataType.category(of: name).rawValue
        return !disabledTypes.contains { $0.lowercased() == category.lowercased() }
    }

    /// Whether samples of a type go to the gateway: enabled, and for a local-only type
    /// (`DataType.localOnly`: positions) listed by name in `types.enabled`.
    public func isSent(_ type: String) -> Bool {
        let name = DataType.canonicalName(type)
        guard isEnabled(name) else { return false }
        guard DataType.localOnly.contains(name) else { return true }
        return enabledTypes.contains { DataType.canonicalName($0) == name }
    }

    /// A digest of what `isEnabled` decides from (the disabled and enabled names, normalized):
    /// part of an import's identity, so a file re-dropped after `types enable` is imported again.
    public var typeFilterDigest: String {
        func normalized(_ names: [String]) -> String {
            Set(names.map { DataCategory.named($0)?.rawValue ?? DataType.canonicalName($0) }).sorted().joined(separator: ",")
        }
        let text = "disabled=" + normalized(disabledTypes) + ";enabled=" + normalized(enabledTypes)
        return SHA256.hash(Array(text.utf8)).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The delivery frequency of a type: configured (by type or category), else the registry
    /// default, else immediate.
    public func frequency(of type: String) -> DeliveryFrequency {
        let name = DataType.canonicalName(type)
        let category = DataType.category(of: name).rawValue
        func names(_ list: [String]) -> Set<String> { Set(list.map { DataCategory.named($0)?.rawValue ?? DataType.canonicalName($0) }) }
        let immediate = names(immediateTypes), hourly = names(hourlyTypes)
        if immediate.contains(name) { return .immediate }
        if hourly.contains(name) { return .hourly }
        if immediate.contains(category) { return .immediate }
        if hourly.contains(category) { return .hourly }
        return DataType.lookup(name)?.defaultFrequency ?? .immediate
    }
}

extension DataCategory {
    /// The category called `name`, case ignored.
    public static func named(_ name: String) -> DataCategory? {
        DataCategory(rawValue: name) ?? allCases.first { $0.rawValue.lowercased() == name.lowercased() }
    }
}

/// One documented setting.
public struct SettingKey: Sendable {
    public let name: String
    public let defaultText: String
    public let summary: String
    let apply: @Sendable (inout Settings, String) throws(SettingsError) -> Void
    /// A valid value as the setting reads it (`Hourly` → `hourly`, `yes` → `true`), for `config show`.
    var normalized: @Sendable (String) -> String = { $0 }

    /// Environment variable that overrides it: `HEALTHSPOOL_` + the key in capitals, `.` as `_`.
    public var environmentName: String {
        "HEALTHSPOOL_" + name.uppercased().map { $0 == "." ? "_" : $0 }.map(String.init).joined()
    }
}

/// A setting that could not be read; names where it came from and what is allowed.
public struct SettingsError: Error, CustomStringConvertible, Sendable, Equatable {
    public var origin: String
    public var key: String
    public var reason: String
    public var description: String { key.isEmpty ? "\(origin): \(reason)" : "\(origin): \(key): \(reason)" }
    /// An error about `key`, from `origin` (a file and line, a variable, "command line").
    public init(key: String, reason: String, origin: String) {
        self.init(key, reason, origin: origin)
    }

    init(_ key: String, _ reason: String, origin: String = "") {
        self.origin = origin
        self.key = key
        self.reason = reason
    }
}

extension SettingKey {
    static func string(_ name: String, _ def: String, _ summary: String,
                       _ set: @escaping @Sendable (inout Settings, String) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: def, summary: summary) { s, v throws(SettingsError) in set(&s, v) }
    }

    static func optional(_ name: String, _ summary: String,
                         _ set: @escaping @Sendable (inout Settings, String?) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: "(unset)", summary: summary) { s, v throws(SettingsError) in set(&s, v.isEmpty ? nil : v) }
    }

    /// An address to listen on, `ADDR:PORT` or `[IPV6]:PORT`; empty for none.
    static func address(_ name: String, _ summary: String,
                        _ set: @escaping @Sendable (inout Settings, ListenAddress?) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: "(unset)", summary: summary) { s, v throws(SettingsError) in
            if v.isEmpty { set(&s, nil); return }
            guard let address = ListenAddress(v) else {
                throw SettingsError(name, "'\(v)' is not ADDR:PORT (an IPv4 address, or an IPv6 one in brackets, and a port from 1 to 65535), e.g. 192.168.1.20:8443")
            }
            set(&s, address)
        }
    }

    static func int(_ name: String, _ def: Int, _ range: ClosedRange<Int>, _ summary: String,
                    _ set: @escaping @Sendable (inout Settings, Int) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: String(def), summary: summary) { s, v throws(SettingsError) in
            guard let n = Int(v), range.contains(n) else {
                throw SettingsError(name, "'\(v)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            set(&s, n)
        }
    }

    static func choice<E: RawRepresentable & CaseIterable>(_ name: String, _ def: E, _ summary: String,
                                                           _ set: @escaping @Sendable (inout Settings, E) -> Void) -> SettingKey
        where E.RawValue == String {
        let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
        // Any case matches (mg/dl is mg/dL); the value reads as the case's own spelling.
        @Sendable func named(_ v: String) -> E? { E.allCases.first { $0.rawValue.lowercased() == v.lowercased() } }
        var key = SettingKey(name: name, defaultText: def.rawValue, summary: summary + " One of: \(allowed).") { s, v throws(SettingsError) in
            guard let e = named(v) else { throw SettingsError(name, "'\(v)' is not one of: \(allowed)") }
            set(&s, e)
        }
        key.normalized = { named($0)?.rawValue ?? $0.lowercased() }
        return key
    }

    static func bool(_ name: String, _ def: Bool, _ summary: String,
                     _ set: @escaping @Sendable (inout Settings, Bool) -> Void) -> SettingKey {
        var key = SettingKey(name: name, defaultText: def ? "true" : "false", summary: summary) { s, v throws(SettingsError) in
            switch v.lowercased() {
            case "true", "yes", "on", "1": set(&s, true)
            case "false", "no", "off", "0": set(&s, false)
            default: throw SettingsError(name, "'\(v)' is not true or false")
            }
        }
        key.normalized = { ["true", "yes", "on", "1"].contains($0.lowercased()) ? "true" : "false" }
        return key
    }

    /// A list of type names, category names or HealthKit identifiers: `a, b` or `["a", "b"]`.
    /// Anything else is refused, with the closest valid name.
    static func typeList(_ name: String, _ summary: String,
                         _ set: @escaping @Sendable (inout Settings, [String]) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: "(empty)", summary: summary + " Comma-separated, or a list: [\"nutrition\", \"sleep\"].") { s, v throws(SettingsError) in
            let items = try SettingsReader.listItems(v, key: name)
            for item in items { try TypeName.validate(item, key: name) }
            set(&s, items)
        }
    }

    /// A string that must be one of `allowed` (case ignored); stored lower-cased.
    static func word(_ name: String, _ def: String, _ allowed: [String], _ summary: String,
                     _ set: @escaping @Sendable (inout Settings, String) -> Void) -> SettingKey {
        let list = allowed.joined(separator: ", ")
        var key = SettingKey(name: name, defaultText: def, summary: summary + " One of: \(list).") { s, v throws(SettingsError) in
            guard allowed.contains(v.lowercased()) else { throw SettingsError(name, "'\(v)' is not one of: \(list)") }
            set(&s, v.lowercased())
        }
        key.normalized = { $0.lowercased() }
        return key
    }

    static func intList(_ name: String, _ def: [Int], _ range: ClosedRange<Int>, _ summary: String,
                        _ set: @escaping @Sendable (inout Settings, [Int]) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: def.map(String.init).joined(separator: ","), summary: summary) { s, v throws(SettingsError) in
            let parts = v.split(separator: ",").map { String($0).trimmingSpaces }
            let numbers = parts.compactMap { Int($0) }.filter { range.contains($0) }
            guard !parts.isEmpty, numbers.count == parts.count else {
                throw SettingsError(name, "'\(v)' is not a comma-separated list of whole numbers from \(range.lowerBound) to \(range.upperBound)")
            }
            set(&s, numbers)
        }
    }

    /// Every setting, documented.
    public static let all: [SettingKey] = [
        .string("spool.dir", "~/HealthSpool", "The spool directory watched for new exports.") { $0.spoolDir = $1 },
        .choice("spool.after_import", AfterImport.archive, "What happens to an imported file: moved to the spool's archive/ folder, or deleted.") { $0.afterImport = $1 },
        .choice("lock.follow_session", SessionFollow.auto, "Whether the daemon follows the lock of the user's logind session as it follows the lock flag (healthspool lock): while the session is locked, or the machine is going to sleep, nothing in the spool is read and nothing is sent; at unlock everything drains. auto: when the user has a graphical session (x11, wayland, mir: the one XDG_SESSION_ID names, else the user's display session, else any graphical one); on: the user's session even if it is not graphical; off: the flag alone. The flag holds whatever the session does. With no system bus, no logind or no session, the flag alone (said once in the log). Taken at the next start of the daemon.") { $0.lockFollowSession = $1 },
        .choice("secrets.keyring", KeyringUse.auto, "Whether the secrets (the gateway's key, token or password, the web secret, the ingest token) are kept in the Secret Service of the user's session (org.freedesktop.secrets: GNOME Keyring, KWallet, KeePassXC). auto: when one is running, healthspool gateway set stores the gateway's secret there and new secrets are made there; secrets already there are read from there first. off: 0600 files and systemd credentials only. healthspool secrets migrate --to keyring|file moves them and sets this. A systemd credential always wins. A locked keyring at the daemon's start: the daemon waits for it, as under the lock.") { $0.secretsKeyring = $1 },
        .string("state.dir", "$XDG_STATE_HOME/healthspool", "Where the SQLite store lives (~/.local/state/healthspool when XDG_STATE_HOME is unset).") { $0.stateDir = $1 },
        .int("spool.retry_base_seconds", 10, 1...3600, "A spool file that failed for a temporary local reason (disk full, permission denied) stays in the spool and is retried after this delay, doubling each time.") { $0.spoolRetryBaseSeconds = $1 },
        .int("spool.retry_max_seconds", 600, 1...86_400, "Longest delay between retries of such a file.") { $0.spoolRetryMaxSeconds = $1 },
        .optional("gateway.url", "The gateway's https:// URL. For confluent-v2/v3 the REST proxy's base URL; for json the URL batches are POSTed to.") { $0.gatewayURL = $1 },
        .choice("gateway.format", GatewayFormat.json, "Wire format: json (healthspool's batches), confluent-v2 or confluent-v3 (a Kafka REST proxy, healthspool's objects as the records' values), fhir or fhir-v3 (the same proxies, each record's value a FHIR R4 resource: a sample as an Observation coded by the table in docs/formats.md, a journal entry as its resource, a deleted entry as its key with a null value).") { $0.gatewayFormat = $1 },
        .string("gateway.topic", "health-samples", "Kafka topic (confluent-v2/v3, fhir, fhir-v3).") { $0.gatewayTopic = $1 },
        .string("gateway.cluster", "cluster", "Kafka cluster id (confluent-v3, fhir-v3).") { $0.gatewayCluster = $1 },
        .optional("gateway.ca_file", "PEM file of CA certificates to trust instead of the system's.") { $0.gatewayCAFile = $1 },
        .optional("gateway.pin", "Public-key pin, sha256//BASE64 (several joined with ';').") { $0.gatewayPin = $1 },
        .optional("gateway.client_cert", "PEM client certificate for mutual TLS.") { $0.gatewayClientCert = $1 },
        .optional("gateway.client_key", "PEM private key of the client certificate.") { $0.gatewayClientKey = $1 },
        .choice("gateway.auth", GatewayAuth.none, "How requests authenticate; the secret is read from gateway.credentials_file or $CREDENTIALS_DIRECTORY/healthspool-gateway.") { $0.gatewayAuth = $1 },
        .string("gateway.api_key_header", "X-API-Key", "Header that carries the API key (auth api-key).") { $0.gatewayAPIKeyHeader = $1 },
        .optional("gateway.credentials_file", "File holding the secret (mode 0600): the key, the token, or user:password.") { $0.gatewayCredentialsFile = $1 },
        .int("gateway.batch_size", 100, 1...10_000, "Samples per request at most.") { $0.batchSize = $1 },
        .int("gateway.backlog_batch_size", 500, 1...10_000, "Samples per request at most while a type's queue holds more than gateway.batch_size (a backlog: after an outage, at start), so that it drains in fewer requests. Only while the gateway is quick: after a request that took more than a quarter of gateway.timeout, requests keep to gateway.batch_size until one is quicker. Never below gateway.batch_size; set it to gateway.batch_size to send every request at that size. 500 samples are about 250 KB of JSON, a quarter of the 1 MiB request body that proxies commonly accept by default.") { $0.backlogBatchSize = $1 },
        .int("gateway.max_body_bytes", 1_048_576, 4096...268_435_456, "The largest request body sent, in bytes before compression: a batch that would be larger goes out in several requests. 1 MiB is what proxies commonly accept by default. One sample larger than it still goes, alone (an ECG is about 120 KB, a part of a workout route about 40 KB).") { $0.maxBodyBytes = $1 },
        .int("gateway.timeout", 30, 1...600, "Request timeout, seconds: the whole request, from connecting to the last byte of the answer.") { $0.requestTimeoutSeconds = $1 },
        .int("gateway.connect_timeout", 10, 1...600, "Connect timeout, seconds.") { $0.connectTimeoutSeconds = $1 },
        .bool("gateway.gzip", false, "Compress request bodies with gzip (Content-Encoding: gzip). Off by default: Confluent REST Proxy and Redpanda's HTTP proxy do not inflate request bodies unless set up to; turn it on for a gateway that does.") { $0.gzip = $1 },
        .bool("gateway.keepalive", true, "Keep the HTTPS connection open between requests (one per sender). Turn off only for gateways that mishandle persistent connections: every request then pays a TCP and TLS handshake.") { $0.keepAlive = $1 },
        .int("sync.senders", 2, 1...16, "Concurrent senders (each with one keep-alive connection).") { $0.senders = $1 },
        .optional("user.id", "The user id sent with every batch: the partition key. Default: the login name.") { $0.userId = $1 },
        .optional("device.id", "The device id sent with every batch. Default: derived from /etc/machine-id.") { $0.deviceId = $1 },
        .choice("sync.frequency", SyncFrequency.realtime, "When samples are sent.") { $0.syncFrequency = $1 },
        .int("sync.throttle_seconds", 60, 0...86_400, "Per-type throttle window: at most one sync trigger per type in this time.") { $0.throttleSeconds = $1 },
        .int("sync.spread_seconds", 60, 0...3600, "Spreads what many daemons would otherwise send in the same second over this window: the catch-up at start (delayed by a fixed share of it, from the device id), the hourly and daily schedule (the same share after each boundary) and the day's journal scores (a random moment in it after local midnight). 0 sends at once. A manual sync is never delayed.") { $0.spreadSeconds = $1 },
        .int("retry.base_seconds", 1, 1...3600, "First retry delay; doubles each failure.") { $0.retryBaseSeconds = $1 },
        .int("retry.max_seconds", 300, 1...86_400, "Longest retry delay.") { $0.retryMaxSeconds = $1 },
        .typeList("types.disabled", "Types or categories neither stored nor sent: registry names (healthspool types list), categories, or any HealthKit identifier. A category covers every identifier of its family, not only the listed types (README, \"Types and categories\"). An unknown name is an error.") { $0.disabledTypes = $1 },
        .typeList("types.enabled", "Types enabled although their category is in types.disabled (healthspool types enable sets it).") { $0.enabledTypes = $1 },
        .typeList("types.hourly", "Types or categories delivered hourly instead of their default.") { $0.hourlyTypes = $1 },
        .typeList("types.immediate", "Types or categories delivered immediately instead of their default.") { $0.immediateTypes = $1 },
        .int("store.retention_days", 0, 0...36_500, "Synced samples older than this many days are pruned; 0 (the default) keeps them whatever their age: the store is your history. The size limit store.max_mb still applies. A pruned sample's id is kept, so it is never stored or sent again.") { $0.retentionDays = $1 },
        .int("store.max_mb", 1024, 16...1_048_576, "Store size limit, MiB; over it, the oldest synced samples go first (by sample date). Unsynced samples are never dropped.") { $0.storeMaxMB = $1 },
        .int("store.deletions_max_percent", 1, 0...100, "A newer full Apple Health export that no longer holds samples an earlier one held marks them deleted (tombstones go to the gateway), but never more than this percent of the stored samples of the export's range in one import: above it they wait for healthspool deletions apply, and the import's line says so. 0 makes every deletion wait.") { $0.deletionBoundPercent = $1 },
        .int("spool.archive_days", 30, 0...36_500, "Files in the spool's archive/ folder older than this many days (since they were archived) are removed; 0 keeps them.") { $0.archiveDays = $1 },
        .int("spool.archive_max_mb", 1024, 0...1_048_576, "Size limit of archive/, MiB; over it, the oldest archived files are removed first; 0 for no limit.") { $0.archiveMaxMB = $1 },
        .int("spool.failed_days", 90, 0...36_500, "Files in failed/ older than this many days are removed with their .reason; 0 keeps them.") { $0.failedDays = $1 },
        .word("log.level", "info", ["trace", "debug", "info", "notice", "warning", "error", "critical"], "Least severe level logged.") { $0.logLevel = $1 },
        .intList("retry.auth_seconds", [60, 300, 900], 1...86_400, "Seconds between retries after the gateway refused the credentials (401/403), comma-separated; the last one repeats. A change to the credentials file is tried at once.") { $0.retryAuthSeconds = $1 },
        .bool("web.enabled", true, "Serve the local web interface (healthspool ui) on a loopback address of the user's own, 127.B.C.D derived from the user id (healthspool status shows it), so no other user's server ever receives its session cookie; every page needs the login link healthspool ui opens.") { $0.webEnabled = $1 },
        .int("web.port", 8484, 1024...65_535, "The web interface's port on the user's own loopback address. Each user has an address of their own, so all can keep 8484. A port in use is logged as a warning, healthspool status says so, and the daemon runs on without the web interface, trying again every web.retry_seconds.") { $0.webPort = $1 },
        .int("web.retry_seconds", 60, 1...3600, "Seconds between two tries to listen while the web port is used by another program.") { $0.webRetrySeconds = $1 },
        .int("web.upload_max_mb", 2048, 1...65_536, "The largest file, in MiB, that Import in the web interface accepts; a larger upload is refused and nothing of it is kept. Larger exports can still be saved to the spool folder directly.") { $0.webUploadMaxMB = $1 },
        .optional("metrics.textfile", "Write the daemon's Prometheus metrics to this file (text format 0.0.4) for node_exporter's textfile collector, e.g. /var/lib/prometheus/node-exporter/healthspool.prom (its directory must be writable by the daemon's user, and added to the packaged unit's sandbox with ReadWritePaths=, see SANDBOX). Replaced atomically (a temporary file in the same directory, then a rename) when the figures change, at most every 5 s. Empty (the default): not written. The same metrics are served at /metrics by the web interface, with a bearer token (healthspool(1), METRICS).") { $0.metricsTextfile = $1 },
        .bool("location.enabled", false, "Record the position from gpsd every location.interval_seconds (the location keep-alive log). Off by default: positions are sensitive. They are stored as samples of type location, kept local unless location is listed in types.enabled.") { $0.locationEnabled = $1 },
        .int("location.interval_seconds", 300, 1...86_400, "Seconds between two recorded positions.") { $0.locationIntervalSeconds = $1 },
        .int("location.retry_seconds", 30, 1...3600, "With no fix for this long, gpsd is asked again (the watch is renewed, or the connection made again).") { $0.locationRetrySeconds = $1 },
        .string("location.gpsd", "127.0.0.1:2947", "gpsd's address, HOST:PORT (its JSON protocol).") { $0.locationGpsd = $1 },
        SettingKey(name: "day.source_priority", defaultText: "watch,phone", summary: "Sources in the order they count where their samples overlap in day totals (steps, distance, energy, flights): each entry matches a source's name or device, case-insensitively; sources no entry matches come last. Comma-separated.") { s, v throws(SettingsError) in
            let items = try SettingsReader.listItems(v, key: "day.source_priority")
            s.sourcePriority = SourcePriority(items)
        },
        .optional("report.name", "The person's name, printed at the top of the doctor's summary (healthspool report, the web interface's Summary page) and in the header of each page of the file when printed. Unset (the default): no name.") { $0.reportName = $1 },
        .choice("journal.glucose_unit", GlucoseUnit.mmolPerL, "The unit blood sugar (glucose) is typed in on the web interface's Measurements page and shown in there, on the day view and by healthspool day, the other unit beside it; stored in mg/dL either way. Chosen on the Settings page.") { $0.glucoseUnit = $1 },
        .address("ingest.listen", "Address and port of the ingest endpoint, to which Health Auto Export's REST API automation POSTs its JSON (README, \"Push from the phone\"): a LAN address of this machine, ADDR:PORT or [IPV6]:PORT, e.g. 192.168.1.20:8443. Unset (the default): no endpoint. HTTPS only; every request needs the token of ingest.token_file. Taken at the next start of the daemon, as are the other ingest settings.") { $0.ingestListen = $1 },
        .optional("ingest.token_file", "File holding the ingest endpoint's token (mode 0600; a file others can read is refused). Default: ingest-token in the state directory, made with a random token when missing. Show it with: healthspool ingest.") { $0.ingestTokenFile = $1 },
        .optional("ingest.cert_file", "PEM certificate (chain allowed) the ingest endpoint presents, with ingest.key_file. Unset: the daemon's own self-signed certificate (EC P-256), made once in the state directory; pin its SHA-256 fingerprint (healthspool ingest).") { $0.ingestCertFile = $1 },
        .optional("ingest.key_file", "PEM private key of ingest.cert_file.") { $0.ingestKeyFile = $1 },
        .int("ingest.max_body_bytes", 67_108_864, 1024...4_294_967_296, "The largest request body the ingest endpoint accepts, in bytes; a larger one is answered 413 and nothing of it is kept.") { $0.ingestMaxBodyBytes = $1 },
        .int("ingest.max_connections", 8, 1...256, "Connections the ingest endpoint serves at once, at most 4 from one address; a quarter of them (at least one) is kept for addresses that showed the token in the last 30 days (the phone). Each address may start 8 TLS handshakes at once, then one a second; the daemon accepts every connection at once and closes those it cannot serve, so a flood does not fill the queue in front of the phone. A connection must finish its TLS handshake within 5 s and send its request head within 10 s of connecting; when all are taken, one that has not yet shown the token is closed to make room: at once from an address holding more than its share, else once older than 1 s. Connections turned away are counted in /metrics (healthspool_ingest_connections_refused_total) and logged once a minute (README, \"Push from the phone\").") { $0.ingestMaxConnections = $1 },
        .int("ingest.retry_seconds", 60, 1...3600, "Seconds between two tries to listen while ingest.listen cannot be used (its port held by another program, the address not yet on this machine). healthspool status, config check and the web's settings page say that the endpoint is not serving, why, and which user's program holds the port.") { $0.ingestRetrySeconds = $1 },
    ]

    static let byName: [String: SettingKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The setting called `name`, if any.
    public static func named(_ name: String) -> SettingKey? { byName[name] }
}

/// Reads settings from config files and the environment, in order of precedence:
/// command line > environment > user file > system file > defaults.
public enum SettingsReader {
    /// Parses `key = value` lines (`#` comments, optional `[section]` headers that prefix keys)
    /// into (key, value, line) triples, or throws naming the line.
    public static func parseFile(_ text: String, origin: String) throws(SettingsError) -> [(String, String, Int)] {
        let parsed = entries(text, origin: origin)
        if let first = parsed.errors.first { throw first }
        return parsed.entries
    }

    /// Every `key = value` line of a config file, and an error for each line that is not one
    /// (`healthspool config check` reports them all; `parseFile` stops at the first).
    public static func entries(_ text: String, origin: String) -> (entries: [(String, String, Int)], errors: [SettingsError]) {
        var out: [(String, String, Int)] = []
        var errors: [SettingsError] = []
        var section = ""
        for (n, rawLine) in lines(text).enumerated() {
            let line = String(rawLine).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmingSpaces
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                errors.append(SettingsError("line \(n + 1)", "expected 'key = value'", origin: origin))
                continue
            }
            var key = String(line[..<eq]).trimmingSpaces
            if !section.isEmpty { key = section + "." + key }
            var value = String(line[line.index(after: eq)...]).trimmingSpaces
            // One quoted string; a list of quoted items ("a", "b") is left for the list reader.
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\""), !value.dropFirst().dropLast().contains("\"") {
                value = String(value.dropFirst().dropLast())
            }
            out.append((key, value, n + 1))
        }
        return (out, errors)
    }

    /// The lines of a config file, LF or CRLF. Swift reads `\r\n` as one Character, which a
    /// split on `\n` does not see: a CRLF file was one long line.
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }

    /// The items of a list value: `a, b`, `"a", "b"` or `["a", "b"]` (quotes optional). Throws
    /// for an unclosed bracket or quote.
    public static func listItems(_ value: String, key: String) throws(SettingsError) -> [String] {
        var v = value.trimmingSpaces
        if v.hasPrefix("[") || v.hasSuffix("]") {
            guard v.hasPrefix("["), v.hasSuffix("]"), v.count >= 2 else {
                throw SettingsError(key, "'\(value)' is an unclosed list; write [\"a\", \"b\"] or a, b")
            }
            v = String(v.dropFirst().dropLast())
        }
        var items: [String] = []
        for raw in v.split(separator: ",", omittingEmptySubsequences: false) {
            var item = String(raw).trimmingSpaces
            for q in ["\"", "'"] where item.hasPrefix(q) || item.hasSuffix(q) {
                guard item.count >= 2, item.hasPrefix(q), item.hasSuffix(q) else {
                    throw SettingsError(key, "\(item) has an unmatched quote; write [\"a\", \"b\"] or a, b")
                }
                item = String(item.dropFirst().dropLast()).trimmingSpaces
            }
            if !item.isEmpty { items.append(item) }
        }
        return items
    }

    /// Builds settings from layers, lowest precedence first. Each layer is (origin, text).
    public static func resolve(files: [(origin: String, text: String)], environment: [String: String],
                               overrides: [(String, String)] = []) throws(SettingsError) -> Settings {
        let layered = files.map { SettingsFile(path: $0.origin, text: $0.text, layer: .user) }
        return try resolveTracked(files: layered, environment: environment, overrides: overrides).settings
    }

    /// `resolve`, keeping where each key's effective value came from. Stops at the first error.
    public static func resolveTracked(files: [SettingsFile], environment: [String: String],
                                      overrides: [(String, String)] = []) throws(SettingsError) -> ResolvedSettings {
        var resolved = ResolvedSettings()
        for (key, value, origin) in try layers(files: files, environment: environment, overrides: overrides) {
            try apply(key, value, to: &resolved.settings, origin: origin.errorOrigin)
            resolved.sources[key] = SettingSource(value: value, origin: origin)
        }
        return resolved
    }

    /// Reads every layer as `resolveTracked` does but goes on past errors: each bad line or value
    /// is reported and skipped (the key keeps its value from the layers below), for
    /// `healthspool config check`.
    public static func check(files: [SettingsFile], environment: [String: String],
                             overrides: [(String, String)] = []) -> (resolved: ResolvedSettings, errors: [SettingsError]) {
        var resolved = ResolvedSettings()
        var errors: [SettingsError] = []
        var assignments: [(String, String, SettingOrigin)] = []
        for file in files {
            let parsed = entries(file.text, origin: file.path)
            // A bad line's error names the file and line as "path:line", like a bad value's.
            errors += parsed.errors.map { e in
                SettingsError("", e.reason, origin: file.path + ":" + e.key.dropFirst("line ".count))
            }
            assignments += parsed.entries.map { ($0.0, $0.1, SettingOrigin.file(layer: file.layer, path: file.path, line: $0.2)) }
        }
        assignments += environmentLayer(environment) + overrides.map { ($0.0, $0.1, SettingOrigin.commandLine) }
        for (key, value, origin) in assignments {
            do throws(SettingsError) {
                try apply(key, value, to: &resolved.settings, origin: origin.errorOrigin)
                resolved.sources[key] = SettingSource(value: value, origin: origin)
            } catch {
                errors.append(error)
            }
        }
        // In reading order: by file and line (bad lines among bad values), then the environment and --set.
        func rank(_ e: SettingsError) -> (Int, Int) {
            for (i, f) in files.enumerated() where e.origin.hasPrefix(f.path + ":") {
                return (i, Int(e.origin.dropFirst(f.path.count + 1)) ?? 0)
            }
            return (files.count, 0)
        }
        let ordered = errors.enumerated().map { (rank($0.element), $0.offset, $0.element) }
            .sorted { ($0.0.0, $0.0.1, $0.1) < ($1.0.0, $1.0.1, $1.1) }
        return (resolved, ordered.map(\.2))
    }

    /// Every assignment of every layer, lowest precedence first, with its origin.
    static func layers(files: [SettingsFile], environment: [String: String],
                       overrides: [(String, String)]) throws(SettingsError) -> [(String, String, SettingOrigin)] {
        var out: [(String, String, SettingOrigin)] = []
        for file in files {
            for (key, value, line) in try parseFile(file.text, origin: file.path) {
                out.append((key, value, .file(layer: file.layer, path: file.path, line: line)))
            }
        }
        return out + environmentLayer(environment) + overrides.map { ($0.0, $0.1, .commandLine) }
    }

    /// The settings set by `HEALTHSPOOL_…` variables, in `SettingKey.all` order.
    static func environmentLayer(_ environment: [String: String]) -> [(String, String, SettingOrigin)] {
        SettingKey.all.compactMap { key in
            environment[key.environmentName].map { (key.name, $0, .environment(key.environmentName)) }
        }
    }

    /// Applies one key, or throws an error naming it and where it came from.
    public static func apply(_ key: String, _ value: String, to s: inout Settings, origin: String) throws(SettingsError) {
        guard let k = SettingKey.named(key) else {
            let hint = NameSuggestion.hint(for: key, among: SettingKey.all.map(\.name))
            throw SettingsError(key, "unknown setting\(hint); see healthspool.conf(5) for the list", origin: origin)
        }
        // No setting holds a line break; written to a file by `gateway set`, one would add lines.
        guard !value.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else {
            throw SettingsError(key, "the value holds a line break; every setting is one line", origin: origin)
        }
        do { try k.apply(&s, value) } catch { throw SettingsError(key, error.reason, origin: origin) }
    }

    /// `text` with `key` set to `value`, keeping comments and other lines as they were. Used by
    /// `healthspool gateway set` and friends. Lines are matched by the key `parseFile` reads from
    /// them, section included: `url = …` under `[gateway]` is `gateway.url`, and is rewritten in
    /// that short form. A key the file does not have yet goes at the top level: appended when the
    /// file has no `[section]`, else inserted before the first one (after it, it would be read as
    /// `section.key`). A nil value removes the key.
    public static func updating(_ text: String, key: String, value: String?) -> String {
        var lines = text.isEmpty ? [] : Self.lines(text).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var found = false
        var section = ""
        var firstSection: Int?
        var out: [String] = []
        for line in lines {
            let t = line.trimmingSpaces
            if t.hasPrefix("["), t.hasSuffix("]") {
                section = String(t.dropFirst().dropLast()).trimmingSpaces
                if firstSection == nil { firstSection = out.count }
                out.append(line)
                continue
            }
            guard !t.hasPrefix("#"), !t.hasPrefix(";"), let eq = t.firstIndex(of: "=") else { out.append(line); continue }
            let local = String(t[..<eq]).trimmingSpaces
            guard (section.isEmpty ? local : section + "." + local) == key else { out.append(line); continue }
            if found { continue }
            found = true
            if let value { out.append("\(local) = \(value)") }
        }
        if !found, let value {
            if var at = firstSection {
                // Above the comment that introduces the section and the blank lines before it.
                while at > 0, out[at - 1].trimmingSpaces.hasPrefix("#") || out[at - 1].trimmingSpaces.hasPrefix(";") { at -= 1 }
                while at > 0, out[at - 1].trimmingSpaces.isEmpty { at -= 1 }
                out.insert("\(key) = \(value)", at: at)
            } else {
                out.append("\(key) = \(value)")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}
