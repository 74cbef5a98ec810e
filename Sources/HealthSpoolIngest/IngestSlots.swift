/// Which connections the ingest endpoint serves, decided at `accept`, before a byte of TLS: a
/// cap per listener (`ingest.max_connections`) and per peer address (`IngestLimits.perPeer`),
/// and, under pressure, the slot of an *unauthenticated* connection (still in its handshake or
/// head, or being refused) is taken back before any other. A policy without clocks or sockets:
/// the server passes `now` (monotonic seconds) and carries out the decision.
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
        /// Shut down to make room; its thread is ending (it no longer counts).
        public var evicted = false
    }

    /// What to do with a connection just accepted.
    public enum Decision: Sendable, Equatable {
        /// Serve it; first shut down `evicting` (an unauthenticated connection) when given.
        case admit(evicting: Int32?)
        /// Close it at once: its peer has `perPeer` connections and none can be taken back yet.
        case refuse
    }

    public let maxConnections: Int
    public let perPeer: Int
    /// An unauthenticated connection younger than this is not taken back: every admitted client
    /// has this long to finish its handshake and send its head, however many others arrive.
    public let graceSeconds: Double
    public private(set) var slots: [Int32: Slot] = [:]

    public init(maxConnections: Int, perPeer: Int, graceSeconds: Double) {
        self.maxConnections = max(1, maxConnections)
        self.perPeer = max(1, min(perPeer, maxConnections))
        self.graceSeconds = graceSeconds
    }

    /// Connections that count against the caps (those shut down to make room do not).
    public var live: Int { slots.values.count { !$0.evicted } }

    /// Whether a new connection could be served at `now` (else the accept loop leaves it to the
    /// kernel's queue until a slot ends): a slot is free, or an unauthenticated one can be taken back.
    public func canAccept(now: Double) -> Bool {
        live < maxConnections || victim(among: { _ in true }, now: now) != nil
    }

    /// Decides for the connection `fd` from `peer` (its address without the port), accepted at `now`.
    public mutating func accept(_ fd: Int32, peer: String, now: Double) -> Decision {
        var evicting: Int32?
        let ofPeer = slots.values.count { !$0.evicted && $0.peer == peer }
        if ofPeer >= perPeer {
            guard let v = victim(among: { $0.peer == peer }, now: now) else { return .refuse }
            evicting = v
        } else if live >= maxConnections {
            guard let v = victim(among: { _ in true }, now: now) else { return .refuse }
            evicting = v
        }
        if let evicting { slots[evicting]?.evicted = true }
        slots[fd] = Slot(peer: peer, phase: .unauthenticated, since: now)
        return .admit(evicting: evicting)
    }

    /// The connection's head carried the token: it is no longer taken back to make room.
    public mutating func authorize(_ fd: Int32) { slots[fd]?.phase = .authorized }

    /// The connection ended (its socket is about to be closed).
    public mutating func finish(_ fd: Int32) { slots[fd] = nil }

    /// Every connection's socket (to wake them all at a stop).
    public var sockets: Dictionary<Int32, Slot>.Keys { slots.keys }

    /// The unauthenticated connection to take back: past its grace, of the peer holding the
    /// most slots, the oldest first.
    func victim(among include: (Slot) -> Bool, now: Double) -> Int32? {
        var held: [String: Int] = [:]
        for s in slots.values where !s.evicted { held[s.peer, default: 0] += 1 }
        return slots.filter { !$0.value.evicted && $0.value.phase == .unauthenticated && now - $0.value.since >= graceSeconds && include($0.value) }
            .min { a, b in
                let (ha, hb) = (held[a.value.peer] ?? 0, held[b.value.peer] ?? 0)
                return ha != hb ? ha > hb : (a.value.since, a.key) < (b.value.since, b.key)
            }?.key
    }
}
