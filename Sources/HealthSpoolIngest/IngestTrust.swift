/// The addresses that showed the token recently (the phone): their connections may use the
/// slots kept free of strangers (`IngestLimits.reservedSlots`) and take a stranger's slot at
/// once. Kept in memory: after a restart the phone is trusted again at its first push.
public struct IngestTrust: Sendable, Equatable {
    /// How long an address stays trusted after it last showed the token.
    public let seconds: Double
    /// Addresses kept at most (the oldest is forgotten first).
    public let maxPeers: Int
    public private(set) var lastShown: [String: Double] = [:]

    public init(seconds: Double, maxPeers: Int = 16) {
        self.seconds = seconds
        self.maxPeers = max(1, maxPeers)
    }

    /// Whether `peer` showed the token within `seconds` before `now`.
    public func trusts(_ peer: String, now: Double) -> Bool {
        guard let t = lastShown[peer] else { return false }
        return now - t < seconds
    }

    /// `peer` showed the token at `now`.
    public mutating func record(_ peer: String, now: Double) {
        lastShown[peer] = now
        while lastShown.count > maxPeers, let oldest = lastShown.min(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key {
            lastShown[oldest] = nil
        }
    }
}
