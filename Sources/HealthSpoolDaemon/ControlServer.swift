import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

/// A client waiting for a manual sync to finish. Lives on the daemon's queue.
final class SyncWaiter {
    let fd: Int32
    let registered: Int64
    var remaining: Set<String>
    var results: [SyncJobResult] = []

    init(fd: Int32, types: [String], registered: Int64) {
        self.fd = fd
        self.remaining = Set(types)
        self.registered = registered
    }

    func send(_ w: JSONWriter) {
        var bytes = w.bytes
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func close() { Glibc.close(fd) }
}

/// The control socket (`$XDG_RUNTIME_DIR/healthspool/control.sock`, owner-only): newline-
/// delimited JSON. `{"command":"sync","types":[…]}` syncs now (bypassing the throttle) and
/// streams `{"event":"progress",…}` lines, then one `{"event":"done",…}`; `{"command":"ping"}`
/// answers `{"event":"pong","pid":…}`.
///
/// `@unchecked Sendable`: `source` is set in `init` and cancelled in `stop`, both on the daemon's
/// queue; accepting runs on `queue` only and hands each request to the daemon's queue.
final class ControlServer: @unchecked Sendable {
    let fd: Int32
    let path: String
    let queue = DispatchQueue(label: "healthspool.control")
    var source: DispatchSourceRead?
    weak var daemon: Daemon?

    init(path: String, daemon: Daemon) throws {
        self.path = path
        self.daemon = daemon
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
        s.resume()
        source = s
    }

    func stop() {
        source?.cancel()
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
            daemon?.q.async { [weak self] in self?.daemon?.handleControl(request, client: client) }
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

extension Daemon {
    /// Handles one control request on the coordination queue.
    func handleControl(_ request: JSONValue, client: Int32) {
        let command = request["command"]?.stringValue ?? ""
        switch command {
        case "ping":
            var w = JSONWriter()
            w.raw("{\"event\":\"pong\",\"pid\":"); w.number(Int64(getpid())); w.raw("}")
            let waiter = SyncWaiter(fd: client, types: [], registered: 0)
            waiter.send(w)
            waiter.close()
        case "observe":
            // `healthspool import` stored samples outside the spool: observe their types.
            let types = request["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if !types.isEmpty { perform(scheduler.observe(types, trigger: .observer, now: Self.now().millis)) }
            let waiter = SyncWaiter(fd: client, types: [], registered: 0)
            var w = JSONWriter()
            w.raw("{\"event\":\"ok\"}")
            waiter.send(w)
            waiter.close()
        case "sync":
            let waiter = SyncWaiter(fd: client, types: [], registered: Self.now().millis)
            func fail(_ message: String) {
                var w = JSONWriter()
                w.raw("{\"event\":\"error\",\"message\":"); w.string(message); w.raw("}")
                waiter.send(w)
                waiter.close()
            }
            if scheduler.locked { return fail("locked: nothing is sent until 'healthspool unlock'") }
            if context.settings.gatewayURL == nil { return fail("no gateway is set; run: healthspool gateway set https://HOST/PATH") }
            if let reason = configError ?? stoppedReason {
                // A manual sync is a user asking to try again: clear a stop and retry once.
                if configError == nil { stoppedReason = nil } else { return fail(reason) }
            }
            var types = request["types"]?.arrayValue?.compactMap(\.stringValue).map(DataType.canonicalName) ?? []
            if types.isEmpty { types = (try? store.typesWithQueuedSamples()) ?? [] }
            types = types.filter { context.settings.isEnabled($0) }
            if types.isEmpty {
                var w = JSONWriter()
                w.raw("{\"event\":\"done\",\"outcome\":\"success\",\"sent\":0,\"results\":[]}")
                waiter.send(w)
                waiter.close()
                return
            }
            waiter.remaining = Set(types)
            waiters.append(waiter)
            perform(scheduler.manual(types))
        default:
            let waiter = SyncWaiter(fd: client, types: [], registered: 0)
            var w = JSONWriter()
            w.raw("{\"event\":\"error\",\"message\":"); w.string("unknown command '\(command)'"); w.raw("}")
            waiter.send(w)
            waiter.close()
        }
    }

    /// Feeds job results and progress to waiting clients; answers those that are complete.
    func finishWaiters(result r: SyncJobResult? = nil) {
        if let r {
            for waiter in waiters where waiter.remaining.contains(r.type) && r.started.millis >= waiter.registered {
                waiter.remaining.remove(r.type)
                waiter.results.append(r)
                var w = JSONWriter()
                w.raw("{\"event\":\"progress\",\"type\":"); w.string(r.type)
                w.raw(",\"sent\":"); w.number(Int64(r.sent)); w.raw(",\"outcome\":"); w.string(r.outcome.rawValue); w.raw("}")
                waiter.send(w)
            }
        }
        waiters.removeAll { waiter in
            guard waiter.remaining.isEmpty else { return false }
            var w = JSONWriter(capacity: 512)
            let sent = waiter.results.reduce(0) { $0 + $1.sent }
            w.raw("{\"event\":\"done\",\"outcome\":"); w.string(waiter.results.outcome.rawValue)
            w.raw(",\"sent\":"); w.number(Int64(sent))
            w.raw(",\"results\":[")
            for (n, r) in waiter.results.enumerated() {
                if n > 0 { w.raw(",") }
                w.raw("{\"type\":"); w.string(r.type)
                w.raw(",\"outcome\":"); w.string(r.outcome.rawValue)
                w.raw(",\"sent\":"); w.number(Int64(r.sent))
                w.raw(",\"parked\":"); w.number(Int64(r.parked))
                w.raw(",\"durationMs\":"); w.number(r.durationMillis)
                w.raw(",\"error\":"); if let e = r.error { w.string(e.description) } else { w.raw("null") }
                w.raw("}")
            }
            w.raw("]}")
            waiter.send(w)
            waiter.close()
            return true
        }
    }
}
