/// How many TLS handshakes each address may start: a bucket of `burst` that refills at
/// `perSecond`, so a peer that reconnects as fast as it can costs the endpoint a handshake a
/// second, not hundreds. A policy without clocks: `now` is monotonic seconds.
public struct IngestHandshakeBudget: Sendable, Equatable {
    public let burst: Double
    public let perSecond: Double
    /// Addresses remembered at most; past it, the fullest buckets are forgotten (a forgotten
    /// address starts full again, as a new one does).
    public let maxPeers: Int
    /// Each address's tokens and when they were counted.
    public private(set) var buckets: [String: Bucket] = [:]

    public struct Bucket: Sendable, Equatable {
        var tokens: Double
        var at: Double
    }

    public init(burst: Int, perSecond: Double, maxPeers: Int = 1024) {
        self.burst = Double(max(1, burst))
        self.perSecond = max(0, perSecond)
        self.maxPeers = max(1, maxPeers)
    }

    /// The handshakes `peer` may still start at `now`.
    public func tokens(_ peer: String, now: Double) -> Double {
        guard let b = buckets[peer] else { return burst }
        return min(burst, b.tokens + max(0, now - b.at) * perSecond)
    }

    /// Whether `peer` may start a handshake at `now`.
    public func allows(_ peer: String, now: Double) -> Bool { tokens(peer, now: now) >= 1 }

    /// `peer` starts one.
    public mutating func spend(_ peer: String, now: Double) {
        buckets[peer] = Bucket(tokens: max(0, tokens(peer, now: now) - 1), at: now)
        guard buckets.count > maxPeers else { return }
        let fullest = buckets.keys.sorted { tokens($0, now: now) > tokens($1, now: now) }
        for key in fullest.prefix(buckets.count - maxPeers) where key != peer { buckets[key] = nil }
    }
}
