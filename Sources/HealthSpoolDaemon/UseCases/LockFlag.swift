import HealthSpoolLinux

/// The lock flag, `<state dir>/locked` (`healthspool lock` / `unlock`, the web's settings, a
/// screen locker hook): while it exists nothing is read from the spool and nothing is sent.
/// The daemon watches the file; it survives restarts.
public enum LockFlag {
    /// Whether the flag is set.
    public static func isSet(context: DaemonContext) -> Bool { FileSystem.exists(context.lockFlagPath) }

    /// Sets the flag (the state directory made when needed, 0700; the file written atomically).
    public static func set(context: DaemonContext) throws {
        try FileSystem.makeDirectory(context.stateDir, mode: 0o700)
        try FileSystem.writeAtomically(context.lockFlagPath, Array("locked\n".utf8))
    }

    /// Removes the flag (nothing when it was not set), durably.
    public static func clear(context: DaemonContext) throws {
        try FileSystem.remove(context.lockFlagPath)
        FileSystem.syncDirectory(of: context.lockFlagPath)
    }
}
