import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// sd_notify: READY, STATUS, WATCHDOG, STOPPING. Does nothing when not run by systemd.
///
/// The datagram socket to `$NOTIFY_SOCKET` (a path, or an abstract name written `@name`) is
/// opened once, when the notifier is made at the daemon's start, and every message is sent on
/// it for the life of the process: libsystemd's `sd_notify` opens a new socket per call, which
/// fails (EMFILE) when the process is out of file descriptors, and the keep-alives must not
/// depend on a resource a client can exhaust. An address this cannot parse falls back to
/// `sd_notify`.
///
/// `@unchecked Sendable`: `fd` and `address` are set in `init` and only read; `sendto` on one
/// datagram socket from several threads is safe.
public final class SystemdNotifier: @unchecked Sendable {
    private let fd: Int32
    private var address = sockaddr_un()
    private var addressLength = socklen_t(0)
    /// Whether `$NOTIFY_SOCKET` was set.
    public let enabled: Bool

    public init() {
        guard let path = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !path.isEmpty else {
            enabled = false
            fd = -1
            return
        }
        enabled = true
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard abstract || bytes.first == UInt8(ascii: "/"), bytes.count <= capacity - (abstract ? 0 : 1) else {
            fd = -1   // vsock: or too long: left to libsystemd
            return
        }
        if abstract { bytes[0] = 0 }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The watchdog interval systemd expects pings within, in microseconds, or nil.
    public var watchdogMicroseconds: UInt64? {
        var usec: UInt64 = 0
        return sd_watchdog_enabled(0, &usec) > 0 ? usec : nil
    }

    @discardableResult
    func send(_ state: String) -> Bool {
        guard enabled else { return false }
        guard fd >= 0 else { return sd_notify(0, state) > 0 }
        let bytes = Array(state.utf8)
        var address = self.address
        let sent = bytes.withUnsafeBytes { b in
            withUnsafePointer(to: &address) { a in
                a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, b.baseAddress, b.count, Int32(MSG_NOSIGNAL), $0, addressLength) }
            }
        }
        return sent == bytes.count
    }

    /// The service is up: the spool is watched and the store is open.
    public func ready(status: String) { send("READY=1\nSTATUS=\(Self.oneLine(status))\nMAINPID=\(getpid())") }
    /// Updates the one-line status shown by `systemctl status`.
    public func status(_ text: String) { send("STATUS=\(Self.oneLine(text))") }
    /// Keeps the watchdog fed; false when the message could not be sent.
    @discardableResult
    public func watchdog() -> Bool { send("WATCHDOG=1") }
    /// Shutting down.
    public func stopping(status: String) { send("STOPPING=1\nSTATUS=\(Self.oneLine(status))") }

    static func oneLine(_ s: String) -> String { String(s.map { $0 == "\n" ? " " : $0 }) }
}
