/// Limits of the ingest endpoint's connections, so a slow, stalled or hostile client cannot hold a
/// thread for long, nor keep the phone out. There is no keep-alive: one request per connection
/// (`Connection: close`).
public struct IngestLimits: Sendable {
    /// The TLS handshake, from the accept.
    public var handshakeSeconds = 5.0
    /// The request head, from the accept (handshake included): a peer without the token holds
    /// a slot at most this long.
    public var headSeconds = 10.0
    /// Connections from one address at once (at most `ingest.max_connections`).
    public var perPeer = 4
    /// Under pressure, an unauthenticated connection is taken back once this old.
    public var graceSeconds = 1.0
    /// Handshakes one address may start at once (its budget's bucket)…
    public var handshakeBurst = 8
    /// …and then per second.
    public var handshakesPerSecond = 1.0
    /// How long an address that showed the token stays trusted (may use the reserved slots).
    public var trustSeconds = 30.0 * 86_400
    /// The longest pause while the body arrives.
    public var bodyIdleSeconds = 20.0
    /// The whole body, however steadily it trickles in.
    public var bodyTotalSeconds = 120.0
    /// Writing the answer.
    public var answerSeconds = 10.0
    /// The listen backlog: the kernel's queue of connections not yet accepted (the accept loop
    /// drains it at once; the kernel caps it at net.core.somaxconn).
    public var backlog: Int32 = 1024
    public init() {}

    /// The slots of `maxConnections` kept for trusted addresses: a quarter, at least one when
    /// there are two or more.
    public func reservedSlots(of maxConnections: Int) -> Int {
        maxConnections >= 2 ? max(1, maxConnections / 4) : 0
    }
}
