import CSystemd

/// Standard error, for messages and progress lines a command prints (C's `stderr` global is not
/// usable from Swift 6; this goes through the C shim and flushes at once).
public enum StandardError {
    /// Writes `text` as is (add the newline yourself).
    public static func write(_ text: String) { hs_write_stderr(text) }
}
