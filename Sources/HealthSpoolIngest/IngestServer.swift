#if canImport(Glibc)
import Glibc
#endif
import CTLSServer
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLock
import Logging

/// The ingest endpoint's listener: one accept thread and at most `maxConnections` connection
/// threads, each connection under its own time limits (`IngestLimits`). Who gets a slot is
/// decided at `accept`, before TLS (`IngestSlots`): caps per listener and per address, a
/// handshake budget per address, slots kept for addresses that showed the token before, and
/// under pressure an unauthenticated connection's slot is taken back (its socket shut down)
/// first. The kernel's queue is drained at once (a connection without a slot is closed, not
/// left queued), so a flood cannot keep the phone's connection waiting behind it. Connections
/// turned away before they showed the token are counted (`healthspool_ingest_connections_refused_total`)
/// and logged as one summary a minute (`IngestRefusalTally`). `stop` ends intake, wakes every
/// connection (a body still arriving is discarded) and waits for them, bounded.
///
/// `@unchecked Sendable`: what the threads share is `state` and `checking`, each behind its
/// lock; `configuration`, `logger`, `tls` and `listenFD` are set in `init` and only read;
/// `acceptThread` is written by `start` and `stop`, which its owner calls from one task, one
/// after the other (the ingest service's `run`).
public final class IngestServer: @unchecked Sendable {
    /// What the server needs; all of it read once at start.
    public struct Configuration: Sendable {
        public var listen: ListenAddress
        public var certPath: String
        public var keyPath: String
        public var token: [UInt8]
        public var spoolDir: String
        public var maxBodyBytes: Int
        public var maxConnections: Int
        public var limits = IngestLimits()
        /// Where refusals are counted for `/metrics` and the textfile (nil: not counted).
        public var metrics: (any IngestCounters)?

        public init(listen: ListenAddress, certPath: String, keyPath: String, token: [UInt8], spoolDir: String,
                    maxBodyBytes: Int, maxConnections: Int) {
            self.listen = listen
            self.certPath = certPath
            self.keyPath = keyPath
            self.token = token
            self.spoolDir = spoolDir
            self.maxBodyBytes = maxBodyBytes
            self.maxConnections = maxConnections
        }
    }

    /// Shared between the accept thread, the connection threads and `stop`.
    struct State {
        var stopping = false
        /// The connections being served (shut down at a stop, or to make room, to wake them).
        var slots: IngestSlots
        /// Connections turned away since the last summary line.
        var refusals = IngestRefusalTally()
    }

    let configuration: Configuration
    let logger: Logger
    let state: Lock<State>
    /// One body is checked at a time, so memory holds at most one body being parsed.
    let checking = Lock(())
    private let tls: OpaquePointer
    private let listenFD: Int32
    private var acceptThread: pthread_t?

    /// Loads the certificate and binds the socket; `start` begins accepting.
    public init(_ configuration: Configuration, logger: Logger) throws(IngestError) {
        self.configuration = configuration
        self.logger = logger
        state = Lock(State(slots: IngestSlots(maxConnections: configuration.maxConnections, limits: configuration.limits)))
        var error = [CChar](repeating: 0, count: 512)
        guard let tls = hs_tls_server_new(configuration.certPath, configuration.keyPath, &error, error.count) else {
            throw .file(configuration.certPath, cText(error))
        }
        self.tls = tls
        do { listenFD = try Self.bind(configuration.listen, backlog: configuration.limits.backlog) } catch {
            hs_tls_server_free(tls)
            throw error
        }
    }

    deinit {
        if listenFD >= 0 { close(listenFD) }
        hs_tls_server_free(tls)
    }

    /// Starts the accept thread (SIGPIPE ignored). Temporary files a crash left in the spool are removed first.
    public func start() throws(IngestError) {
        // TLS writes to a socket the peer closed raise SIGPIPE, which ends the process: a phone
        // (or anyone) leaving mid-answer must cost one connection, whoever runs this server.
        signal(SIGPIPE, SIG_IGN)
        for name in SpoolDrop.removeLeftovers(in: configuration.spoolDir) {
            logger.notice("removed \(name), a pushed body a previous run did not finish", metadata: ["event": "ingest", "file": "\(name)"])
        }
        guard let thread = IngestThread.start({ [self] in acceptLoop() }) else {
            throw .listen(configuration.listen.description, "cannot start a thread")
        }
        acceptThread = thread
    }

    /// Stops accepting, wakes every connection and waits up to `timeoutSeconds` for them to end.
    /// Returns how many were still running at the deadline.
    @discardableResult
    public func stop(timeoutSeconds: Double) -> Int {
        state.withLock(wake: true) { s in
            s.stopping = true
            for fd in s.slots.sockets { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        if let acceptThread { pthread_join(acceptThread, nil) }
        acceptThread = nil
        if let counts = state.withLock({ $0.refusals.flush() }) { logRefusals(counts, now: Self.monotonicSeconds()) }
        let deadline = Self.monotonicSeconds() + timeoutSeconds
        while Self.monotonicSeconds() < deadline {
            if state.withLock({ $0.slots.slots.isEmpty }) { return 0 }
            usleep(20_000)
        }
        return state.withLock { $0.slots.slots.count }
    }

    /// Accepts until the stop. It drains the kernel's queue at once, deciding for each
    /// connection (`IngestSlots`), so a peer that opens many connections cannot keep others
    /// waiting behind them there; it leaves connections queued only while every slot carries an
    /// authorized body. The refusals' summary is logged from here, once a minute.
    func acceptLoop() {
        while true {
            let now = Self.monotonicSeconds()
            let (stopping, busy, summary) = state.withLock { ($0.stopping, $0.slots.mustWait, $0.refusals.summary(now: now)) }
            if let summary { logRefusals(summary, now: now) }
            if stopping { return }
            if busy { usleep(20_000); continue }
            var p = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) > 0 else { continue }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listenFD, $0, &length) }
            }
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            guard fd >= 0 else {
                if errno == EMFILE || errno == ENFILE { usleep(100_000) }
                continue
            }
            let (host, peer) = Self.describe(address)
            let decision = state.withLock { s -> IngestSlots.Decision? in
                if s.stopping { return nil }
                let decision = s.slots.accept(fd, peer: host, now: Self.monotonicSeconds())
                // Shut down under the lock: the evicted socket cannot have been closed and reused.
                if case .admit(let evicting?) = decision { shutdown(evicting, Int32(SHUT_RDWR)) }
                return decision
            }
            guard let decision else { close(fd); return }
            switch decision {
            case .refuse(let reason):
                close(fd)
                refused(reason)
                continue
            case .admit(let evicting):
                if evicting != nil { refused(.evicted) }
            }
            let started = IngestThread.detach { [self] in
                IngestConnection(server: self, fd: fd, peer: peer).serve()
            }
            if !started {
                state.withLock(wake: true) { $0.slots.finish(fd) }
                close(fd)
            }
        }
    }

    /// Hands an accepted socket to TLS; nil (socket closed, counted, not logged one by one)
    /// when the handshake fails.
    func handshake(_ fd: Int32, peer: String) -> OpaquePointer? {
        var error = [CChar](repeating: 0, count: 512)
        let ms = Int32(configuration.limits.handshakeSeconds * 1000)
        guard let conn = hs_tls_accept(tls, fd, ms, &error, error.count) else {
            refused(.handshake)
            logger.debug("ingest: \(cText(error))", metadata: ["event": "ingest", "ingest.peer": "\(peer)"])
            return nil
        }
        return conn
    }

    /// Counts a connection turned away before it showed the token (the summary says it).
    func refused(_ reason: IngestRefusal) {
        state.withLock { $0.refusals.record(reason) }
        configuration.metrics?.ingestRefused(reason.rawValue)
    }

    /// The summary line of the connections turned away, with the limits that turned them away.
    func logRefusals(_ counts: [(IngestRefusal, Int)], now: Double) {
        let limits = configuration.limits
        logger.warning("\(IngestRefusalTally.text(counts, seconds: 60)); limits: ingest.max_connections \(configuration.maxConnections), \(limits.perPeer) per address, \(limits.handshakeBurst) handshakes then \(Self.number(limits.handshakesPerSecond)) a second per address",
                       metadata: ["event": "ingest"])
    }

    /// The connection's head carried the token: its slot is no longer taken back to make room,
    /// and its address is trusted (`IngestTrust`).
    func authorize(_ fd: Int32) { state.withLock { $0.slots.authorize(fd, now: Self.monotonicSeconds()) } }

    /// Whether a stop began.
    var stopping: Bool { state.withLock { $0.stopping } }

    /// A connection's end: its socket leaves the set before it is closed (so a stop never shuts
    /// down a reused descriptor).
    func finished(_ fd: Int32, close closeConnection: () -> Void) {
        state.withLock(wake: true) { s in
            s.slots.finish(fd)
            closeConnection()
        }
    }

    static func bind(_ listen: ListenAddress, backlog: Int32) throws(IngestError) -> Int32 {
        let family = listen.isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .listen(listen.description, String(cString: strerror(errno))) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var rc: Int32
        if listen.isIPv6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = UInt16(listen.port).bigEndian
            guard inet_pton(AF_INET6, listen.host, &a.sin6_addr) == 1 else { close(fd); throw .listen(listen.description, "not an IPv6 address") }
            rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = UInt16(listen.port).bigEndian
            guard inet_pton(AF_INET, listen.host, &a.sin_addr) == 1 else { close(fd); throw .listen(listen.description, "not an IPv4 address") }
            rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        guard rc == 0, Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            if code == EADDRINUSE { throw .portTaken(listen, holder: IngestStatus.portHolder(listen)) }
            throw .listen(listen.description, String(cString: strerror(code)))
        }
        return fd
    }

    /// The peer's address as text: without the port (what the per-peer cap counts) and with it.
    static func describe(_ address: sockaddr_storage) -> (host: String, peer: String) {
        let peer = describeWithPort(address)
        let host = peer.hasPrefix("[") ? String(peer.prefix { $0 != "]" }.dropFirst()) : String(peer.prefix { $0 != ":" })
        return (host, peer)
    }

    static func describeWithPort(_ address: sockaddr_storage) -> String {
        var copy = address
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        func found() -> String { cText(text) }
        return withUnsafePointer(to: &copy) { p -> String in
            if Int32(address.ss_family) == AF_INET {
                return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                    var addr = a.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                    return found() + ":\(UInt16(bigEndian: a.pointee.sin_port))"
                }
            }
            return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                var addr = a.pointee.sin6_addr
                inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
                return "[" + found() + "]:\(UInt16(bigEndian: a.pointee.sin6_port))"
            }
        }
    }

    /// `value` as a person writes it: 1, not 1.0.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
