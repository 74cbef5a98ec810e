import HealthSpoolConfig
import HealthSpoolLinux

/// The lock flag, `<state dir>/locked` (`healthspool lock` / `unlock`, the web's settings, a
/// screen locker hook): while it exists nothing is read from the spool and nothing is sent.
/// The daemon watches the file; it survives restarts.
public enum LockFlag {
    /// Whether the flag at `path` (`Configuration.lockFlagPath`) is set.
    public static func isSet(path: String) -> Bool { FileSystem.exists(path) }

    /// Sets the flag (its directory, the state directory, made when needed, 0700; the file
    /// written atomically).
    public static func set(path: String) throws {
        try FileSystem.makeDirectory(FileSystem.parent(path), mode: 0o700)
        try FileSystem.writeAtomically(path, Array("locked\n".utf8))
    }

    /// Removes the flag (nothing when it was not set), durably.
    public static func clear(path: String) throws {
        try FileSystem.remove(path)
        FileSystem.syncDirectory(of: path)
    }
}

extension LockFlag {
    /// `isSet(path:)` of `context.lockFlagPath`.
    public static func isSet(context: Configuration) -> Bool { isSet(path: context.lockFlagPath) }
    /// `set(path:)` of `context.lockFlagPath`.
    public static func set(context: Configuration) throws { try set(path: context.lockFlagPath) }
    /// `clear(path:)` of `context.lockFlagPath`.
    public static func clear(context: Configuration) throws { try clear(path: context.lockFlagPath) }
}
