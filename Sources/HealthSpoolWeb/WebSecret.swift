import HealthSpoolCore
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

/// The user's web secret: 32 random bytes in `<state dir>/web.secret`, mode 0600, made by the
/// first of the daemon and `healthspool ui` that needs it. Only its owner can read it, so only
/// its owner can make a login link.
public enum WebSecret {
    /// The secret file's path in a state directory.
    public static func path(stateDir: String) -> String { stateDir + "/web.secret" }

    /// Reads the secret: from the keyring when it holds it (`secrets.keyring`), else from its
    /// file; when it is in neither, makes it in the keyring if one is usable, else in the file
    /// (0600, atomically: never half-written).
    public static func loadOrCreate(stateDir: String, keyring: KeyringUse = .off, environment: [String: String] = [:]) throws -> [UInt8] {
        let file = path(stateDir: stateDir)
        func decoded(_ text: String) throws -> [UInt8] {
            guard let bytes = Hex.decode(text), bytes.count == 32 else {
                throw WebError.secret("web secret", "in the keyring (\(SecretName.web.rawValue))", "is not 64 hex digits; delete it in your keyring manager and run healthspool ui again")
            }
            return bytes
        }
        if let text = try KeyringSecret.read(.web, use: keyring, environment: environment) { return try decoded(text) }
        if !FileSystem.exists(file),
           let text = try KeyringSecret.storeIfUsable(.web, text: Hex.encode(RandomBytes.make(32)), use: keyring, environment: environment) {
            return try decoded(text)
        }
        return try loadOrCreate(file: file, name: "web secret", remedy: "run healthspool ui again")
    }

    /// Reads 32 random bytes kept as hex in `file` (0600), creating the file when absent. `name`
    /// and `remedy` go into the errors (the web secret, the metrics token).
    static func loadOrCreate(file: String, name: String, remedy: String) throws -> [UInt8] {
        let stateDir = FileSystem.parent(file)
        if let bytes = try read(file, name: name, remedy: remedy) { return bytes }
        try FileSystem.makeDirectory(stateDir, mode: 0o700)
        let temp = file + ".\(getpid()).tmp"
        try FileSystem.writeAtomically(temp, Array((Hex.encode(RandomBytes.make(32)) + "\n").utf8), mode: 0o600)
        // link() fails when another process made the file first: then theirs is the secret.
        _ = link(temp, file)
        unlink(temp)
        guard let bytes = try read(file, name: name, remedy: remedy) else { throw WebError.secret(name, file, "could not be created") }
        return bytes
    }

    static func read(_ file: String, name: String, remedy: String) throws -> [UInt8]? {
        guard let text = try FileSystem.readText(file) else { return nil }
        var st = stat()
        if stat(file, &st) == 0, st.st_mode & 0o077 != 0 {
            throw WebError.secret(name, file, "is readable by other users; run: chmod 600 \(file)")
        }
        guard let bytes = Hex.decode(text.trimmingSpaces), bytes.count == 32 else {
            throw WebError.secret(name, file, "is not 64 hex digits; delete it and \(remedy)")
        }
        return bytes
    }
}

/// Errors of the web interface.
public enum WebError: Error, CustomStringConvertible {
    /// A secret file (`name`, path, what is wrong) that cannot be used.
    case secret(String, String, String)
    case bind(String, String)

    public var description: String {
        switch self {
        case let .secret(name, file, why): "\(name) \(file) \(why)"
        case let .bind(address, why): "web interface: cannot listen on \(address): \(why)"
        }
    }
}
