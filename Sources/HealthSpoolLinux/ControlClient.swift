import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Talks to a running daemon over its control socket.
public final class ControlClient {
    let fd: Int32
    var buffer: [UInt8] = []

    /// Connects, or returns nil when no daemon listens.
    public init?(path: String, timeoutSeconds: Int = 600) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard var addr = unixSocketAddress(path) else { close(fd); return nil }
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard rc == 0 else { close(fd); return nil }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends one request.
    public func send(_ request: JSONValue) -> Bool {
        var w = JSONWriter()
        w.value(request)
        var bytes = w.bytes
        bytes.append(0x0A)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// The next JSON line from the daemon, or nil when the connection ended.
    public func next() -> JSONValue? {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<nl])
                buffer.removeFirst(nl + 1)
                if let v = try? JSONParser.parse(line) { return v }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}

/// The address of a Unix socket at `path`, or nil when the path is too long for one.
package func unixSocketAddress(_ path: String) -> sockaddr_un? {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return nil }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
        for (i, b) in bytes.enumerated() { raw[i] = b }
        raw[bytes.count] = 0
    }
    return addr
}
