import HealthSpoolCore

/// A secret healthspool makes itself (the web secret, the ingest token) kept in the keyring
/// when one is usable: read from there first, made there when it exists nowhere yet. The
/// callers keep their 0600 file as the fallback.
public enum KeyringSecret {
    /// The secret's text in the keyring (surrounding blanks trimmed); nil when there is no
    /// keyring or it does not hold `name`. Throws `.locked` when it does but is locked.
    public static func read(_ name: SecretName, use: KeyringUse, environment: [String: String]) throws(KeyringError) -> String? {
        let bytes = try SecretService.with(use: use, environment: environment) { service throws(KeyringError) in try service.read(name) }
        guard let found = bytes, let found else { return nil }
        return String(decoding: found, as: UTF8.self).trimmingSpaces
    }

    /// Stores `text` as `name` when a keyring is usable and unlocked and returns what it holds
    /// then (another process may have stored first); nil when there is no keyring.
    public static func storeIfUsable(_ name: SecretName, text: String, use: KeyringUse,
                                     environment: [String: String]) throws(KeyringError) -> String? {
        let stored = try SecretService.with(use: use, environment: environment) { service throws(KeyringError) -> String? in
            if case .locked = try service.state(of: name) { throw .locked(name) }
            if try service.isLocked() { return nil }
            if let existing = try service.read(name) { return String(decoding: existing, as: UTF8.self).trimmingSpaces }
            try service.store(name, secret: Array(text.utf8))
            return try service.read(name).map { String(decoding: $0, as: UTF8.self).trimmingSpaces }
        }
        return stored ?? nil
    }

    /// Where `name` lives: the keyring when it holds it, else `file` when it exists, else none.
    public static func place(_ name: SecretName, file: String, use: KeyringUse, environment: [String: String]) -> SecretPlace {
        if let state = try? SecretService.with(use: use, environment: environment, { service throws(KeyringError) in try service.state(of: name) }) {
            if state == .unlocked { return .keyring }
            if state == .locked { return .lockedKeyring }
        }
        return FileSystem.exists(file) ? .file(file) : .none
    }
}
