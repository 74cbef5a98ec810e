import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// sd_notify: READY, STATUS, WATCHDOG, STOPPING. Does nothing when not run by systemd.
public struct SystemdNotifier: Sendable {
    public init() {}

    /// The watchdog interval systemd expects pings within, in microseconds, or nil.
    public var watchdogMicroseconds: UInt64? {
        var usec: UInt64 = 0
        return sd_watchdog_enabled(0, &usec) > 0 ? usec : nil
    }

    @discardableResult
    func send(_ state: String) -> Bool { sd_notify(0, state) > 0 }

    /// The service is up: the spool is watched and the store is open.
    public func ready(status: String) { send("READY=1\nSTATUS=\(Self.oneLine(status))\nMAINPID=\(getpid())") }
    /// Updates the one-line status shown by `systemctl status`.
    public func status(_ text: String) { send("STATUS=\(Self.oneLine(text))") }
    /// Keeps the watchdog fed.
    public func watchdog() { send("WATCHDOG=1") }
    /// Shutting down.
    public func stopping(status: String) { send("STOPPING=1\nSTATUS=\(Self.oneLine(status))") }

    static func oneLine(_ s: String) -> String { String(s.map { $0 == "\n" ? " " : $0 }) }
}
