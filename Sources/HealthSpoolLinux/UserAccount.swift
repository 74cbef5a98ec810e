#if canImport(Glibc)
import Glibc
#endif

/// The name of a local account, for messages that say who holds something (a port taken by
/// another user's program: `healthspool status`, `config check`).
public enum UserAccount {
    /// The login name of `uid`; nil when the system knows no such account.
    public static func name(of uid: UInt32) -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let rc = getpwuid_r(uid, &entry, &buffer, buffer.count, &found)
        guard rc == 0, found != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    /// "user NAME (uid N)", or "uid N" when the account has no name.
    public static func describe(_ uid: UInt32) -> String {
        name(of: uid).map { "user \($0) (uid \(uid))" } ?? "uid \(uid)"
    }
}
