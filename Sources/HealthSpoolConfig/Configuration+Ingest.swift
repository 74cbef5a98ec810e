import HealthSpoolCore
import HealthSpoolLinux

/// Where the ingest endpoint's token, certificate and key live, and what a phone needs to
/// reach it (`healthspool ingest`, `status`, the endpoint itself).
extension Configuration {
    /// The token file: `ingest.token_file`, else `ingest-token` in the state directory.
    public var ingestTokenPath: String { settings.ingestTokenFile.map(paths.expand) ?? stateDir + "/ingest-token" }
    /// Whether the token may live in the keyring: `secrets.keyring`, unless `ingest.token_file`
    /// names a file of the user's choosing.
    public var ingestTokenKeyring: KeyringUse { settings.ingestTokenFile == nil ? settings.secretsKeyring : .off }
    /// Whether the endpoint uses the daemon's own self-signed certificate (no `ingest.cert_file`).
    public var ingestUsesOwnCertificate: Bool { settings.ingestCertFile == nil }
    /// The certificate presented: `ingest.cert_file`, else the daemon's own in the state directory.
    public var ingestCertPath: String { settings.ingestCertFile.map(paths.expand) ?? stateDir + "/ingest-cert.pem" }
    /// Its private key: `ingest.key_file`, else the daemon's own in the state directory.
    public var ingestKeyPath: String { settings.ingestKeyFile.map(paths.expand) ?? stateDir + "/ingest-key.pem" }
    /// The URL the phone POSTs to; nil when the endpoint is off.
    public var ingestURL: String? { settings.ingestListen.map { "https://\($0)/ingest" } }
    /// The SHA-256 fingerprint of the certificate presented, read from its file now; nil when
    /// it cannot be read (not made yet: the daemon or `healthspool ingest` makes it).
    public func ingestFingerprint() -> String? {
        guard let text = try? FileSystem.readText(ingestCertPath) else { return nil }
        return CertificateFingerprint.ofPEM(text)
    }

    /// The ingest endpoint as `status --json` shows it (the certificate's file read now).
    public func ingestJSON() -> JSONValue {
        guard let url = ingestURL else { return .object([("enabled", .bool(false))]) }
        return .object([("enabled", .bool(true)), ("url", .string(url)), ("fingerprintSHA256", ingestFingerprint().map(JSONValue.string) ?? .null),
                        ("certificate", .string(ingestCertPath)), ("selfSigned", .bool(ingestUsesOwnCertificate)),
                        ("tokenFile", .string(ingestTokenPath))])
    }
}
