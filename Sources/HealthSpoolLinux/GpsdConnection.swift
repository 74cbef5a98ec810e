import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Why gpsd could not be read; every case names the address.
public enum GpsdError: Error, CustomStringConvertible, Equatable {
    case badAddress(String)
    case connect(String, String)
    case closed(String)

    public var description: String {
        switch self {
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
                    if err == 0 { fd = s; return }
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
