/// Which connections the ingest endpoint serves, decided at `accept`, before a byte of TLS, so
/// that the phone gets in while others flood the port:
/// - a cap per listener (`ingest.max_connections`) and per address (`IngestLimits.perPeer`);
/// - a handshake budget per address (`IngestHandshakeBudget`): a peer reconnecting as fast as
///   it can is refused at accept, before it costs a handshake;
/// - slots kept for addresses that showed the token recently (`IngestTrust`,
///   `IngestLimits.reservedSlots`): strangers never hold them, and a trusted address takes a
///   stranger's unauthenticated slot at once;
/// - under pressure an *unauthenticated* connection (still in its handshake or head) is taken
///   back, never an authorized one: at once from an address holding more than its fair share
///   (more than the newcomer's address would hold plus one), else once past its grace, from
///   the address holding the most, the oldest first.
/// A policy without clocks or sockets: the server passes `now` (monotonic seconds) and carries
/// out the decision.
public struct IngestSlots: Sendable {
    /// Where a connection is.
    public enum Phase: Sendable, Equatable {
        /// Handshake, request head or a refusal: the peer has not shown the token.
        case unauthenticated
        /// The head carried the token: its body is being read, checked and answered.
        case authorized
    }

    /// One connection being served.
    public struct Slot: Sendable, Equatable {
        public var peer: String
        public var phase: Phase
        /// When it was accepted (monotonic seconds).
        public var since: Double
        /// Its address was trusted at the accept, or it showed the token since: it does not
        /// count against the strangers' share.
        public var trusted: Bool
        /// Shut down to make room; its thread is ending (it no longer counts).
        public var evicted = false
    }

    /// What to do with a connection just accepted.
    public enum Decision: Sendable, Equatable {
        /// Serve it; first shut down `evicting` (an unauthenticated connection) when given.
        case admit(evicting: Int32?)
        /// Close it at once, for this reason.
        case refuse(IngestRefusal)
    }

    public let maxConnections: Int
    public let perPeer: Int
    /// Slots only trusted addresses may hold.
    public let reserved: Int
    /// An unauthenticated connection younger than this is not taken back (except from an
    /// address over its fair share, or for a trusted address).
    public let graceSeconds: Double
    public private(set) var slots: [Int32: Slot] = [:]
    public private(set) var budget: IngestHandshakeBudget
    public private(set) var trust: IngestTrust

    public init(maxConnections: Int, limits: IngestLimits = IngestLimits()) {
        self.maxConnections = max(1, maxConnections)
        perPeer = max(1, min(limits.perPeer, self.maxConnections))
        reserved = limits.reservedSlots(of: self.maxConnections)
        graceSeconds = limits.graceSeconds
        budget = IngestHandshakeBudget(burst: limits.handshakeBurst, perSecond: limits.handshakesPerSecond)
        trust = IngestTrust(seconds: limits.trustSeconds)
    }

    /// Connections that count against the caps (those shut down to make room do not).
    public var live: Int { slots.values.count { !$0.evicted } }

    /// Whether the accept loop leaves new connections in the kernel's queue for now: only
    /// while every slot carries an authorized body (only the token's holder gets there).
    /// Otherwise it accepts and decides at once, so strangers never fill the queue.
    public var mustWait: Bool {
        live >= maxConnections && slots.values.allSatisfy { $0.evicted || $0.phase == .authorized }
    }

    /// Decides for the connection `fd` from `peer` (its address without the port), accepted at `now`.
    public mutating func accept(_ fd: Int32, peer: String, now: Double) -> Decision {
        guard budget.allows(peer, now: now) else { return .refuse(.handshakeBudget) }
        let trusted = trust.trusts(peer, now: now)
        var held: [String: Int] = [:]
        var strangers = 0
        for s in slots.values where !s.evicted {
            held[s.peer, default: 0] += 1
            if !s.trusted { strangers += 1 }
        }
        let mine = held[peer] ?? 0
        var evicting: Int32?
        if mine >= perPeer {
            // Its own oldest idle connection, past its grace, makes room for the new one.
            guard let v = victim(held: held, now: now, { $0.peer == peer && now - $0.since >= graceSeconds }) else {
                return .refuse(.addressLimit)
            }
            evicting = v
        } else if live >= maxConnections || (!trusted && strangers >= maxConnections - reserved) {
            guard let v = room(for: peer, trusted: trusted, mine: mine, held: held, now: now) else { return .refuse(.full) }
            evicting = v
        }
        if let evicting { slots[evicting]?.evicted = true }
        budget.spend(peer, now: now)
        slots[fd] = Slot(peer: peer, phase: .unauthenticated, since: now, trusted: trusted)
        return .admit(evicting: evicting)
    }

    /// The connection's head carried the token at `now`: it is no longer taken back to make
    /// room, and its address is trusted from now on.
    public mutating func authorize(_ fd: Int32, now: Double) {
        guard let peer = slots[fd]?.peer else { return }
        slots[fd]?.phase = .authorized
        slots[fd]?.trusted = true
        trust.record(peer, now: now)
    }

    /// The connection ended (its socket is about to be closed).
    public mutating func finish(_ fd: Int32) { slots[fd] = nil }

    /// Every connection's socket (to wake them all at a stop).
    public var sockets: Dictionary<Int32, Slot>.Keys { slots.keys }

    /// The slot to take back for a newcomer from `peer` (holding `mine`) when the listener, or
    /// the strangers' share of it, is full.
    func room(for peer: String, trusted: Bool, mine: Int, held: [String: Int], now: Double) -> Int32? {
        let idle: (Slot) -> Bool = { $0.phase == .unauthenticated }
        if trusted {
            // A stranger's idle slot at once; else an idle one past its grace of an address holding as many.
            return victim(held: held, now: now) { idle($0) && !$0.trusted }
                ?? victim(held: held, now: now) { idle($0) && now - $0.since >= graceSeconds && ($0.peer == peer || held[$0.peer, default: 0] > mine) }
        }
        // A stranger never takes a trusted slot. From an address over its fair share, at once;
        // else past its grace, from an address holding at least as many as the newcomer would.
        return victim(held: held, now: now) { idle($0) && !$0.trusted && $0.peer != peer && held[$0.peer, default: 0] > mine + 1 }
            ?? victim(held: held, now: now) {
                idle($0) && !$0.trusted && now - $0.since >= graceSeconds && ($0.peer == peer || held[$0.peer, default: 0] > mine)
            }
    }

    /// Among the live slots that `include` accepts: of the address holding the most, the oldest.
    func victim(held: [String: Int], now: Double, _ include: (Slot) -> Bool) -> Int32? {
        slots.filter { !$0.value.evicted && include($0.value) }
            .min { a, b in
                let (ha, hb) = (held[a.value.peer] ?? 0, held[b.value.peer] ?? 0)
                return ha != hb ? ha > hb : (a.value.since, a.key) < (b.value.since, b.key)
            }?.key
    }
}
