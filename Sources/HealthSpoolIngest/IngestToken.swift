#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore
import HealthSpoolLinux

/// The ingest endpoint's shared secret: read from a file only its owner can read, or made
/// (32 random bytes as hex, mode 0600) when the file does not exist yet.
public enum IngestToken {
    /// The shortest token accepted from a file someone wrote by hand.
    public static let minimumLength = 16

    /// The token: from the keyring when it holds it (`keyring` not off), else from `path`; when
    /// it is in neither, made in the keyring if one is usable, else in `path`.
    public static func loadOrCreate(path: String, keyring: KeyringUse, environment: [String: String]) throws(IngestError) -> [UInt8] {
        do {
            if let text = try KeyringSecret.read(.ingest, use: keyring, environment: environment) { return try check(text, "the keyring's \(SecretName.ingest.rawValue)") }
            if !FileSystem.exists(path),
               let text = try KeyringSecret.storeIfUsable(.ingest, text: newToken(), use: keyring, environment: environment) {
                return try check(text, "the keyring's \(SecretName.ingest.rawValue)")
            }
        } catch let error as IngestError { throw error } catch { throw .file("the keyring", "\(error)") }
        return try loadOrCreate(path: path)
    }

    static func newToken() -> String { IngestRandom.bytes(32).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    /// The token in `path`, made first when missing.
    public static func loadOrCreate(path: String) throws(IngestError) -> [UInt8] {
        if !FileSystem.exists(path) {
            let token = newToken()
            do {
                try FileSystem.makeDirectory(FileSystem.parent(path), mode: 0o700)
                try FileSystem.writeAtomically(path, Array((token + "\n").utf8), mode: 0o600)
            } catch { throw .file(path, "cannot write the new token: \(error)") }
        }
        return try load(path: path)
    }

    /// The token in `path`, refused when others can read the file or it is too short.
    public static func load(path: String) throws(IngestError) -> [UInt8] {
        guard let info = FileSystem.regularFile(path) else { throw .file(path, "not a regular file (ingest.token_file)") }
        guard info.mode & 0o077 == 0 else {
            throw .file(path, "others can read this token file (mode \(String(info.mode & 0o777, radix: 8))); run: chmod 600 \(path)")
        }
        guard info.uid == getuid() else { throw .file(path, "the token file belongs to another user; it must be yours, mode 0600") }
        let text: String
        do { text = String(decoding: try FileSystem.read(path, limit: 4096), as: UTF8.self) } catch { throw .file(path, "cannot read it: \(error)") }
        return try check(text, path)
    }

    /// A token's text as it may be used: long enough, printable ASCII.
    static func check(_ text: String, _ path: String) throws(IngestError) -> [UInt8] {
        let token = text.trimmingBlanks.filter { $0 != "\n" && $0 != "\r" }
        guard token.utf8.count >= minimumLength else {
            throw .file(path, "the token is shorter than \(minimumLength) characters; remove the file to have a random one made")
        }
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .file(path, "the token has characters that cannot travel in an HTTP header (use printable ASCII, no spaces)")
        }
        return Array(token.utf8)
    }
}
