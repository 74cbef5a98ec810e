import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Why gpsd could not be read; every case names the address.
public enum GpsdError: Error, CustomStringConvertible, Equatable {
    case badAddress(String)
    case connect(String, String)
    case closed(String)
    /// gpsd on this machine answers from a socket of another user (`uid`, `user` when known):
    /// anything on the machine can pretend to be gpsd, so its positions are not taken.
    case untrusted(String, uid: UInt32, user: String?)

    public var description: String {
        switch self {
        case let .untrusted(a, uid, user):
            "gpsd at \(a) is run by \(user.map { "user '\($0)' (uid \(uid))" } ?? "uid \(uid)"), not by the system's gpsd or you: "
                + "any program on this computer can pretend to be gpsd, so its positions are not recorded; stop that program "
                + "and run gpsd as the system service (systemctl start gpsd.socket)"
        case let .badAddress(a): "gpsd address '\(a)': write HOST:PORT (location.gpsd, default 127.0.0.1:2947)"
        case let .connect(a, why): "gpsd at \(a): cannot connect (\(why)); is gpsd running? (systemctl status gpsd)"
        case let .closed(a): "gpsd at \(a) closed the connection"
        }
    }
}

/// One TCP connection to gpsd speaking its JSON protocol: `?WATCH={"enable":true,"json":true}`,
/// then TPV reports line by line. Blocking calls with deadlines; the owner calls them from a
/// thread of its own, never the cooperative pool. Closes the socket in `deinit`.
public final class GpsdConnection {
    public let address: String
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `address` (`HOST:PORT`) within `timeoutMillis`.
    public init(address: String, timeoutMillis: Int) throws(GpsdError) {
        self.address = address
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            throw .badAddress(address)
        }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else { throw .connect(address, String(cString: gai_strerror(rc))) }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            let s = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            guard s >= 0 else { lastError = String(cString: strerror(errno)); continue }
            if Glibc.connect(s, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var p = pollfd(fd: s, events: Int16(POLLOUT), revents: 0)
                if poll(&p, 1, Int32(timeoutMillis)) == 1 {
                    var err: Int32 = 0
                    var len = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len)
                    if err == 0 {
                        if let owner = Self.foreignOwner(of: s) {
                            close(s)
                            throw .untrusted(address, uid: owner, user: Self.userName(owner))
                        }
                        fd = s
                        return
                    }
                    lastError = String(cString: strerror(err))
                } else {
                    lastError = "timed out after \(timeoutMillis) ms"
                }
            } else {
                lastError = String(cString: strerror(errno))
            }
            close(s)
        }
        throw .connect(address, lastError)
    }

    deinit { close(fd) }

    /// The owner of the socket that answered on this machine, when it is neither root (gpsd's
    /// own, or systemd's gpsd.socket), gpsd's system account, nor this user; nil for those, and for a gpsd on another
    /// machine (the person chose it). Asked of the kernel: the accepted socket belongs to the
    /// listener's owner (`SocketOwner`). A loopback peer the kernel cannot vouch for is foreign.
    static func foreignOwner(of fd: Int32) -> UInt32? {
        guard let mine = endpoint(fd, peer: false), let theirs = endpoint(fd, peer: true) else { return UInt32.max }
        let loopback = theirs.host.hasPrefix("127.") || theirs.host == "::1" || theirs.host.hasPrefix("::ffff:127.")
        guard loopback || isLocalAddress(theirs.host) else { return nil }
        guard let owner = SocketOwner.uid(local: theirs, remote: mine) else { return UInt32.max }
        return owner == 0 || owner == getuid() || gpsdAccounts.contains(owner) ? nil : owner
    }

    /// The system account gpsd drops its privileges to (Debian's `gpsd`, `_gpsd` elsewhere):
    /// only root can start a program as it, and gpsd's sockets may belong to it.
    static let gpsdAccounts: Set<UInt32> = Set(["gpsd", "_gpsd"].compactMap { (name: String) -> UInt32? in getpwnam(name)?.pointee.pw_uid })

    /// Whether `host` is one of this machine's own addresses (a gpsd on the LAN address of this
    /// same computer is still a local program): the address can be bound here.
    static func isLocalAddress(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "0", &hints, &list) == 0, let a = list else { return false }
        defer { freeaddrinfo(list) }
        let s = socket(a.pointee.ai_family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return false }
        defer { close(s) }
        return bind(s, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0
    }

    /// A socket's own end (`peer` false) or its peer's, as numeric host and port.
    static func endpoint(_ fd: Int32, peer: Bool) -> (host: String, port: Int)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST)), port = [CChar](repeating: 0, count: 16)
        let ok = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &port, socklen_t(port.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard ok == 0, let p = Int(String(cString: port)) else { return nil }
        return (String(cString: host), p)
    }

    /// The login name of `uid`, when it has one.
    static func userName(_ uid: UInt32) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// Asks gpsd to stream reports as JSON (sent again, it renews the watch).
    public func watch() throws(GpsdError) {
        let line = Array("?WATCH={\"enable\":true,\"json\":true}\n".utf8)
        let n = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n == line.count else { throw .closed(address) }
    }

    /// The next fix gpsd reports before `deadline` (milliseconds of `Self.monotonicMillis`), or nil.
    public func nextFix(deadline: Int64) throws(GpsdError) -> GpsFix? {
        while true {
            while let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                if let fix = GpsFix(gpsdLine: line) { return fix }
            }
            if buffer.count > 1 << 20 { buffer.removeAll() }   // no line that long in gpsd's protocol
            let left = deadline - Self.monotonicMillis()
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left, 1000)))
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 8192)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw .closed(address) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw .closed(address)
            }
            buffer += chunk[0..<n]
        }
    }

    /// Milliseconds of the monotonic clock.
    public static func monotonicMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
