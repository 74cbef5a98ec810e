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
    public var requestTimeoutSeconds = 30
    public var connectTimeoutSeconds = 10
    public var gzip = false
    public var keepAlive = true
    public var senders = 2
    public var userId: String? = nil
    public var deviceId: String? = nil
    public var syncFrequency = SyncFrequency.realtime
    public var throttleSeconds = 60
    public var retryBaseSeconds = 1
    public var retryMaxSeconds = 300
    public var disabledTypes: [String] = []
    public var hourlyTypes: [String] = []
    public var immediateTypes: [String] = []
    public var retentionDays = 30
    public var storeMaxMB = 1024
    public var logLevel = "info"
    /// Seconds between retries after the gateway refused the credentials; the last repeats.
    public var retryAuthSeconds = [60, 300, 900]

    public init() {}

    /// Whether a type (registry name or HealthKit identifier) is enabled.
    public func isEnabled(_ type: String) -> Bool {
        let name = DataType.canonicalName(type)
        let disabled = Set(disabledTypes.map(DataType.canonicalName))
        if disabled.contains(name) { return false }
        if let category = DataType.lookup(name)?.category, disabled.contains(category.rawValue) { return false }
        return true
    }

    /// The delivery frequency of a type: configured, else the registry default, else immediate.
    public func frequency(of type: String) -> DeliveryFrequency {
        let name = DataType.canonicalName(type)
        if immediateTypes.map(DataType.canonicalName).contains(name) { return .immediate }
        if hourlyTypes.map(DataType.canonicalName).contains(name) { return .hourly }
        return DataType.lookup(name)?.defaultFrequency ?? .immediate
    }
}

/// One documented setting.
public struct SettingKey: Sendable {
    public let name: String
    public let defaultText: String
    public let summary: String
    let apply: @Sendable (inout Settings, String) throws(SettingsError) -> Void

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
    public var description: String { "\(origin): \(key): \(reason)" }
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
        return SettingKey(name: name, defaultText: def.rawValue, summary: summary + " One of: \(allowed).") { s, v throws(SettingsError) in
            guard let e = E(rawValue: v.lowercased()) else { throw SettingsError(name, "'\(v)' is not one of: \(allowed)") }
            set(&s, e)
        }
    }

    static func bool(_ name: String, _ def: Bool, _ summary: String,
                     _ set: @escaping @Sendable (inout Settings, Bool) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: def ? "true" : "false", summary: summary) { s, v throws(SettingsError) in
            switch v.lowercased() {
            case "true", "yes", "on", "1": set(&s, true)
            case "false", "no", "off", "0": set(&s, false)
            default: throw SettingsError(name, "'\(v)' is not true or false")
            }
        }
    }

    static func list(_ name: String, _ summary: String,
                     _ set: @escaping @Sendable (inout Settings, [String]) -> Void) -> SettingKey {
        SettingKey(name: name, defaultText: "(empty)", summary: summary) { s, v throws(SettingsError) in
            set(&s, v.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty })
        }
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
        .string("state.dir", "$XDG_STATE_HOME/healthspool", "Where the SQLite store lives (~/.local/state/healthspool when XDG_STATE_HOME is unset).") { $0.stateDir = $1 },
        .int("spool.retry_base_seconds", 10, 1...3600, "A spool file that failed for a temporary local reason (disk full, permission denied) stays in the spool and is retried after this delay, doubling each time.") { $0.spoolRetryBaseSeconds = $1 },
        .int("spool.retry_max_seconds", 600, 1...86_400, "Longest delay between retries of such a file.") { $0.spoolRetryMaxSeconds = $1 },
        .optional("gateway.url", "The gateway's https:// URL. For confluent-v2/v3 the REST proxy's base URL; for json the URL batches are POSTed to.") { $0.gatewayURL = $1 },
        .choice("gateway.format", GatewayFormat.json, "Wire format.") { $0.gatewayFormat = $1 },
        .string("gateway.topic", "health-samples", "Kafka topic (confluent-v2/v3).") { $0.gatewayTopic = $1 },
        .string("gateway.cluster", "cluster", "Kafka cluster id (confluent-v3).") { $0.gatewayCluster = $1 },
        .optional("gateway.ca_file", "PEM file of CA certificates to trust instead of the system's.") { $0.gatewayCAFile = $1 },
        .optional("gateway.pin", "Public-key pin, sha256//BASE64 (several joined with ';').") { $0.gatewayPin = $1 },
        .optional("gateway.client_cert", "PEM client certificate for mutual TLS.") { $0.gatewayClientCert = $1 },
        .optional("gateway.client_key", "PEM private key of the client certificate.") { $0.gatewayClientKey = $1 },
        .choice("gateway.auth", GatewayAuth.none, "How requests authenticate; the secret is read from gateway.credentials_file or $CREDENTIALS_DIRECTORY/healthspool-gateway.") { $0.gatewayAuth = $1 },
        .string("gateway.api_key_header", "X-API-Key", "Header that carries the API key (auth api-key).") { $0.gatewayAPIKeyHeader = $1 },
        .optional("gateway.credentials_file", "File holding the secret (mode 0600): the key, the token, or user:password.") { $0.gatewayCredentialsFile = $1 },
        .int("gateway.batch_size", 100, 1...10_000, "Samples per request at most.") { $0.batchSize = $1 },
        .int("gateway.timeout", 30, 1...600, "Request timeout, seconds: the whole request, from connecting to the last byte of the answer.") { $0.requestTimeoutSeconds = $1 },
        .int("gateway.connect_timeout", 10, 1...600, "Connect timeout, seconds.") { $0.connectTimeoutSeconds = $1 },
        .bool("gateway.gzip", false, "Compress request bodies with gzip (Content-Encoding: gzip). Off by default: Confluent REST Proxy and Redpanda's HTTP proxy do not inflate request bodies unless set up to; turn it on for a gateway that does.") { $0.gzip = $1 },
        .bool("gateway.keepalive", true, "Keep the HTTPS connection open between requests (one per sender). Turn off only for gateways that mishandle persistent connections: every request then pays a TCP and TLS handshake.") { $0.keepAlive = $1 },
        .int("sync.senders", 2, 1...16, "Concurrent senders (each with one keep-alive connection).") { $0.senders = $1 },
        .optional("user.id", "The user id sent with every batch: the partition key. Default: the login name.") { $0.userId = $1 },
        .optional("device.id", "The device id sent with every batch. Default: derived from /etc/machine-id.") { $0.deviceId = $1 },
        .choice("sync.frequency", SyncFrequency.realtime, "When samples are sent.") { $0.syncFrequency = $1 },
        .int("sync.throttle_seconds", 60, 0...86_400, "Per-type throttle window: at most one sync trigger per type in this time.") { $0.throttleSeconds = $1 },
        .int("retry.base_seconds", 1, 1...3600, "First retry delay; doubles each failure.") { $0.retryBaseSeconds = $1 },
        .int("retry.max_seconds", 300, 1...86_400, "Longest retry delay.") { $0.retryMaxSeconds = $1 },
        .list("types.disabled", "Types or categories neither stored nor sent (comma-separated).") { $0.disabledTypes = $1 },
        .list("types.hourly", "Types delivered hourly instead of their default.") { $0.hourlyTypes = $1 },
        .list("types.immediate", "Types delivered immediately instead of their default.") { $0.immediateTypes = $1 },
        .int("store.retention_days", 30, 1...36_500, "Synced samples older than this are pruned.") { $0.retentionDays = $1 },
        .int("store.max_mb", 1024, 16...1_048_576, "Store size limit; the oldest synced samples go first.") { $0.storeMaxMB = $1 },
        .string("log.level", "info", "Least severe level logged: debug, info, notice, warning, error.") { $0.logLevel = $1 },
        .intList("retry.auth_seconds", [60, 300, 900], 1...86_400, "Seconds between retries after the gateway refused the credentials (401/403), comma-separated; the last one repeats. A change to the credentials file is tried at once.") { $0.retryAuthSeconds = $1 },
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
        var out: [(String, String, Int)] = []
        var section = ""
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmingSpaces
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw SettingsError("line \(n + 1)", "expected 'key = value'", origin: origin)
            }
            var key = String(line[..<eq]).trimmingSpaces
            if !section.isEmpty { key = section + "." + key }
            var value = String(line[line.index(after: eq)...]).trimmingSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            out.append((key, value, n + 1))
        }
        return out
    }

    /// Builds settings from layers, lowest precedence first. Each layer is (origin, text).
    public static func resolve(files: [(origin: String, text: String)], environment: [String: String],
                               overrides: [(String, String)] = []) throws(SettingsError) -> Settings {
        var s = Settings()
        for file in files {
            for (key, value, line) in try parseFile(file.text, origin: file.origin) {
                try apply(key, value, to: &s, origin: "\(file.origin):\(line)")
            }
        }
        for key in SettingKey.all {
            if let v = environment[key.environmentName] { try apply(key.name, v, to: &s, origin: key.environmentName) }
        }
        for (k, v) in overrides { try apply(k, v, to: &s, origin: "command line") }
        return s
    }

    /// Applies one key, or throws an error naming it and where it came from.
    public static func apply(_ key: String, _ value: String, to s: inout Settings, origin: String) throws(SettingsError) {
        guard let k = SettingKey.named(key) else {
            throw SettingsError(key, "unknown setting (see healthspool.conf(5) for the list)", origin: origin)
        }
        do { try k.apply(&s, value) } catch { throw SettingsError(key, error.reason, origin: origin) }
    }

    /// `text` with `key` set to `value` (replacing an existing line, else appending), keeping
    /// comments and other lines as they were. Used by `healthspool gateway set` and friends.
    public static func updating(_ text: String, key: String, value: String?) -> String {
        var lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var found = false
        lines = lines.compactMap { line in
            let t = line.trimmingSpaces
            guard !t.hasPrefix("#"), let eq = t.firstIndex(of: "="), String(t[..<eq]).trimmingSpaces == key else { return line }
            if found { return nil }
            found = true
            return value.map { "\(key) = \($0)" }
        }
        if !found, let value { lines.append("\(key) = \(value)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
