#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore

/// Reads the gateway secret: from a file that only its owner can read, or from systemd
/// credentials (`$CREDENTIALS_DIRECTORY/healthspool-gateway`). Never from the command line or
/// the main config file, and never logged.
public enum Credentials {
    /// The systemd credential name.
    public static let credentialName = "healthspool-gateway"

    /// Why a secret could not be read.
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// The secret, or nil when none is configured: the systemd credential, else the keyring's
    /// item (unless `keyring` is off), else `file`. Throws when the file is unsafe or
    /// unreadable, or the keyring holds the secret but is locked (`KeyringError.locked`).
    public static func load(file: String?, environment: [String: String], keyring: KeyringUse = .off) throws -> String? {
        if let dir = environment["CREDENTIALS_DIRECTORY"], FileSystem.exists(dir + "/" + credentialName) {
            return try read(dir + "/" + credentialName, checkMode: false)
        }
        if let bytes = try SecretService.with(use: keyring, environment: environment, { service throws(KeyringError) in try service.read(.gateway) }),
           let bytes {
            return try secret(from: bytes, path: "the keyring's \(SecretName.gateway.rawValue)")
        }
        guard let file else { return nil }
        return try read(file, checkMode: true)
    }

    /// Where the gateway's secret would be read from, in `load`'s order (never the secret).
    public static func place(file: String?, environment: [String: String], keyring: KeyringUse) -> SecretPlace {
        if let dir = environment["CREDENTIALS_DIRECTORY"], FileSystem.exists(dir + "/" + credentialName) {
            return .credential(dir + "/" + credentialName)
        }
        if let state = try? SecretService.with(use: keyring, environment: environment, { service throws(KeyringError) in try service.state(of: .gateway) }) {
            if state == .unlocked { return .keyring }
            if state == .locked { return .lockedKeyring }
        }
        return file.map(SecretPlace.file) ?? .none
    }

    static func read(_ path: String, checkMode: Bool) throws -> String {
        guard let info = FileSystem.regularFile(path) else {
            throw Refused(description: "credentials file \(path) does not exist or is not a regular file")
        }
        if checkMode, info.mode & 0o077 != 0 {
            throw Refused(description: "credentials file \(path) is readable by group or others (mode \(String(info.mode, radix: 8))); run: chmod 600 \(path)")
        }
        if checkMode, info.uid != getuid() {
            throw Refused(description: "credentials file \(path) belongs to another user")
        }
        return try secret(from: try FileSystem.read(path, limit: 64 * 1024), path: path)
    }

    /// The secret in a file's bytes: one trailing newline (LF or CRLF) is stripped; any other
    /// control character is refused, since it would end the header the secret goes into and
    /// start another one.
    static func secret(from bytes: [UInt8], path: String) throws -> String {
        var end = bytes.count
        if end > 0, bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        let body = bytes[..<end]
        if let bad = body.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            let line = body[..<bad].filter { $0 == 0x0A }.count + 1
            throw Refused(description: "credentials file \(path) holds a control character (byte \(bad), line \(line), 0x\(String(body[bad], radix: 16))): a secret is one line of printable text; remove the extra lines or characters")
        }
        let secret = String(decoding: body, as: UTF8.self).trimmingSpaces
        guard !secret.isEmpty else { throw Refused(description: "credentials file \(path) is empty") }
        return secret
    }
}
