import HealthSpoolLinux
import NIOCore
import NIOHTTPTypes
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The bounds on the web interface's connections (issue 26: 1,100 half-sent request heads from
/// another local user used up the daemon's file descriptors). Every connection is held to them
/// by a `WebConnectionGuard`; the listener as a whole accepts at most `maximumConnections`.
struct WebLimits: Sendable {
    /// Connections the listener holds at once; past it, new ones wait in the kernel's backlog
    /// (they cost the daemon no file descriptor) until one closes.
    var maximumConnections = 256
    /// Connections from programs of the user the daemon runs as.
    var ownerConnections = 64
    /// Connections from programs of each other user (a Prometheus scrape of /metrics, say).
    var otherUserConnections = 8
    /// The largest request head read (request line and header fields), in bytes: a browser's
    /// full cookie jar for one host fits (about 180 cookies of 4 KB: a page of another user's on
    /// this address at another port can fill it, issue 39), and a connection's memory stays
    /// bounded. The HTTP decoder's default, 80 KB, answered 400 to 40 cookies of 4 KB.
    var headBytes = 1 << 20
    /// A request's head must have arrived this long after the connection opened.
    var headSeconds: Int64 = 10
    /// Its body must have arrived this long after its head (an upload of several GiB on loopback).
    var bodySeconds: Int64 = 600
    /// A kept-alive connection with no new request for this long is closed.
    var idleSeconds: Int64 = 30
}

/// Connections open at the moment, by the user id of the program at the other end.
final class WebPeers: Sendable {
    let limits: WebLimits
    /// The user the daemon runs as.
    let owner: UInt32
    private let open = Mutex<[UInt32: Int]>([:])
    /// The user at the other end of each open connection, by the connection's identity: the
    /// request guard honours a session only on a connection of the owner's.
    private let users = Mutex<[ObjectIdentifier: UInt32]>([:])

    init(limits: WebLimits, owner: UInt32 = getuid()) {
        self.limits = limits
        self.owner = owner
    }

    /// Counts a connection of `uid` in; false (and nothing counted) when that user already has
    /// as many as it may. An unknown owner (the kernel no longer knows the peer's socket: it
    /// closed already) counts as another user, `UInt32.max`.
    func admit(_ uid: UInt32) -> Bool {
        let cap = uid == owner ? limits.ownerConnections : limits.otherUserConnections
        return open.withLock { counts in
            guard counts[uid, default: 0] < cap else { return false }
            counts[uid, default: 0] += 1
            return true
        }
    }

    /// Notes that `connection` is `uid`'s (while it is open).
    func record(_ connection: ObjectIdentifier, uid: UInt32) { users.withLock { $0[connection] = uid } }

    /// Forgets `connection` (closed).
    func forget(_ connection: ObjectIdentifier) { users.withLock { $0[connection] = nil } }

    /// The user at the other end of `connection`; nil when it is not (or no longer) open.
    func user(of connection: ObjectIdentifier) -> UInt32? { users.withLock { $0[connection] } }

    func release(_ uid: UInt32) {
        open.withLock { counts in
            counts[uid, default: 1] -= 1
            if counts[uid] == 0 { counts[uid] = nil }
        }
    }

    /// The user at the other end of `channel`, a TCP connection on loopback.
    static func uid(of channel: any Channel) -> UInt32 {
        guard case .v4? = channel.remoteAddress, case .v4? = channel.localAddress,
              let remote = channel.remoteAddress, let local = channel.localAddress,
              let rIP = remote.ipAddress, let rPort = remote.port, let lIP = local.ipAddress, let lPort = local.port
        else { return UInt32.max }
        // The peer's socket: its own end is our remote, its peer our local end.
        return SocketOwner.uid(local: (rIP, rPort), remote: (lIP, lPort)) ?? UInt32.max
    }
}

/// One connection's guard, in the pipeline just after the HTTP decoder: admits the connection by
/// its peer's user (`WebPeers`), and closes it when a request head, a request body or the next
/// request of a kept-alive connection does not arrive in time (`WebLimits`). While a handler
/// works on a request and while a response streams, no deadline runs.
final class WebConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let peers: WebPeers
    private var admitted: UInt32?
    private var connection: ObjectIdentifier?
    private var started = false
    /// Requests whose head has arrived and whose response has not ended yet.
    private var pending = 0
    private var deadline: Scheduled<Void>?

    init(peers: WebPeers) { self.peers = peers }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { finish() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            pending += 1
            arm(context, seconds: peers.limits.bodySeconds)
        case .body: break
        case .end: deadline?.cancel(); deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            pending = max(0, pending - 1)
            if pending == 0 { arm(context, seconds: peers.limits.idleSeconds) }
        }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        let uid = WebPeers.uid(of: context.channel)
        guard peers.admit(uid) else {
            context.close(promise: nil)
            return
        }
        admitted = uid
        connection = ObjectIdentifier(context.channel)
        peers.record(ObjectIdentifier(context.channel), uid: uid)
        arm(context, seconds: peers.limits.headSeconds)
    }

    private func arm(_ context: ChannelHandlerContext, seconds: Int64) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: .seconds(seconds)) { channel.close(promise: nil) }
    }

    private func finish() {
        deadline?.cancel()
        deadline = nil
        if let uid = admitted { peers.release(uid) }
        if let connection { peers.forget(connection) }
        admitted = nil
        connection = nil
    }
}
