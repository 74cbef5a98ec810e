/// One of healthspool's secrets, as the keyring names it: the attributes of its Secret Service
/// item are `application = healthspool` and `setting = <rawValue>`.
public enum SecretName: String, CaseIterable, Sendable {
    /// The gateway's API key, bearer token or user:password (`gateway.auth`).
    case gateway = "gateway.secret"
    /// The web interface's login secret (32 random bytes, as hex).
    case web = "web.secret"
    /// The ingest endpoint's token.
    case ingest = "ingest.token"

    /// The `application` attribute every healthspool item carries.
    public static let application = "healthspool"

    /// The item's attributes in the Secret Service.
    public var attributes: [(String, String)] { [("application", Self.application), ("setting", rawValue)] }

    /// The item's label, as a keyring manager (Seahorse, KWallet) shows it.
    public var label: String {
        switch self {
        case .gateway: "healthspool: gateway secret"
        case .web: "healthspool: web interface secret"
        case .ingest: "healthspool: ingest endpoint token"
        }
    }
}

/// Where a secret lives, as `config check` and `config show` say it (never the secret).
public enum SecretPlace: Sendable, Equatable {
    /// In the Secret Service of the user's session.
    case keyring
    /// In the Secret Service, which is locked now: the item is there but cannot be read yet.
    case lockedKeyring
    /// In a 0600 file.
    case file(String)
    /// A systemd credential (`$CREDENTIALS_DIRECTORY/…`).
    case credential(String)
    /// Nowhere yet (made when first needed, or not needed).
    case none

    /// In words: "keyring (org.freedesktop.secrets)", "file /path", "systemd credential /path".
    public var text: String {
        switch self {
        case .keyring: "keyring (Secret Service)"
        case .lockedKeyring: "keyring (Secret Service, locked)"
        case let .file(path): "file \(path)"
        case let .credential(path): "systemd credential \(path)"
        case .none: "not made yet"
        }
    }

    /// A one-word kind for JSON: keyring, file, credential, none.
    public var kind: String {
        switch self {
        case .keyring, .lockedKeyring: "keyring"
        case .file: "file"
        case .credential: "credential"
        case .none: "none"
        }
    }
}
