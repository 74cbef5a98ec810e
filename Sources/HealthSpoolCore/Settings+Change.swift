/// Which parts of the daemon a settings change concerns, so that a reload restarts only those:
/// the sync part (gateway, delivery, retries, the types sent), the schedule (frequencies,
/// throttle), retention, the intake (what is imported and what becomes of a file), logging.
public struct SettingsChange: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Gateway, TLS, auth, batch, senders, envelope, retry policy, the types sent.
    public static let sync = SettingsChange(rawValue: 1 << 0)
    /// Sync frequency, throttle, hourly and immediate types.
    public static let schedule = SettingsChange(rawValue: 1 << 1)
    /// Store and spool retention.
    public static let retention = SettingsChange(rawValue: 1 << 2)
    /// What is imported and what becomes of an imported or waiting file.
    public static let intake = SettingsChange(rawValue: 1 << 3)
    /// Directories: taken only at the next start.
    public static let directories = SettingsChange(rawValue: 1 << 4)
    /// The log level.
    public static let logging = SettingsChange(rawValue: 1 << 5)

    /// What differs between `old` and `new`.
    public static func between(_ old: Settings, _ new: Settings) -> SettingsChange {
        var change: SettingsChange = []
        func differ<T: Equatable>(_ key: KeyPath<Settings, T>) -> Bool { old[keyPath: key] != new[keyPath: key] }
        let types = differ(\.disabledTypes) || differ(\.enabledTypes)
        if differ(\.gatewayURL) || differ(\.gatewayFormat) || differ(\.gatewayTopic) || differ(\.gatewayCluster)
            || differ(\.gatewayCAFile) || differ(\.gatewayPin) || differ(\.gatewayClientCert) || differ(\.gatewayClientKey)
            || differ(\.gatewayAuth) || differ(\.gatewayAPIKeyHeader) || differ(\.gatewayCredentialsFile) || differ(\.secretsKeyring)
            || differ(\.batchSize) || differ(\.backlogBatchSize) || differ(\.requestTimeoutSeconds) || differ(\.connectTimeoutSeconds) || differ(\.gzip)
            || differ(\.keepAlive) || differ(\.senders) || differ(\.userId) || differ(\.deviceId)
            || differ(\.retryBaseSeconds) || differ(\.retryMaxSeconds) || differ(\.retryAuthSeconds) || types {
            change.insert(.sync)
        }
        if differ(\.syncFrequency) || differ(\.throttleSeconds) || differ(\.hourlyTypes) || differ(\.immediateTypes) {
            change.insert(.schedule)
        }
        if differ(\.retentionDays) || differ(\.storeMaxMB) || differ(\.archiveDays) || differ(\.archiveMaxMB) || differ(\.failedDays) {
            change.insert(.retention)
        }
        if differ(\.afterImport) || differ(\.spoolRetryBaseSeconds) || differ(\.spoolRetryMaxSeconds) || types {
            change.insert(.intake)
        }
        if differ(\.spoolDir) || differ(\.stateDir) { change.insert(.directories) }
        if differ(\.logLevel) { change.insert(.logging) }
        return change
    }
}
