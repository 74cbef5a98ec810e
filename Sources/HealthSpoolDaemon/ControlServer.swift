import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolLock
#if canImport(Glibc)
import Glibc
#endif

/// One request read from the control socket, and the client's socket, which its answer goes to
/// and whoever answers closes.
struct ControlRequest: Sendable {
    let json: JSONValue
    let client: Int32
}

/// The control socket (`$XDG_RUNTIME_DIR/healthspool/control.sock`, owner-only): newline-
/// delimited JSON. `{"command":"sync","types":[…]}` syncs now (bypassing the throttle) and
/// streams `{"event":"progress",…}` lines, then one `{"event":"done",…}`; `{"command":"ping"}`
/// answers `{"event":"pong","pid":…}`.
///
/// Accepting and reading a request line run on `queue` only; each request goes to `deliver`
/// (the daemon's stream of requests, which `ControlService.run()` hands to the sync coordinator
/// one by one). The read source, set in `init` and cancelled by `stop`, is kept behind a lock.
final class ControlServer: Sendable {
    let fd: Int32
    let path: String
    let queue = DispatchQueue(label: "healthspool.control")
    private let source = Lock<DispatchSourceRead?>(nil)
    private let deliver: @Sendable (ControlRequest) -> Void

    init(path: String, deliver: @escaping @Sendable (ControlRequest) -> Void) throws {
        self.path = path
        self.deliver = deliver
        unlink(path)
        self.fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw FileError("socket", path) }
        guard var addr = unixSocketAddress(path) else { close(fd); throw FileError("bind", path, ENAMETOOLONG) }
        let old = umask(0o177)
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(self.fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        umask(old)
        guard rc == 0 else { let e = errno; close(fd); throw FileError("bind", path, e) }
        chmod(path, 0o600)
        guard listen(fd, 16) == 0 else { let e = errno; close(fd); throw FileError("listen", path, e) }
        let s = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        s.setEventHandler { [weak self] in self?.acceptAll() }
        let listener = self.fd
        s.setCancelHandler { close(listener) }
        source.withLock { $0 = s }
        s.resume()
    }

    func stop() {
        source.withLock { $0?.cancel() }
        unlink(path)
    }

    private func acceptAll() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { return }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let flags = fcntl(client, F_GETFL)
            _ = fcntl(client, F_SETFL, flags & ~O_NONBLOCK)
            var tv = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            guard let line = Self.readLine(client), let request = try? JSONParser.parse(line) else {
                Glibc.close(client)
                continue
            }
            deliver(ControlRequest(json: request, client: client))
        }
    }

    /// One request line from a client (without its newline), at most 64 KiB; nil when the client
    /// sent nothing or too much. Internal for the control fuzz target.
    static func readLine(_ fd: Int32) -> [UInt8]? {
        var out: [UInt8] = []
        var byte: UInt8 = 0
        while out.count < 65536 {
            let n = read(fd, &byte, 1)
            if n <= 0 { return out.isEmpty ? nil : out }
            if byte == 0x0A { return out }
            out.append(byte)
        }
        return nil
    }
}
