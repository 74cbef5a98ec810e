/// Where one daemon's fixed-time work falls inside a window, so that a fleet that would act in
/// the same second (all started after a power cut, all at the top of the hour) spreads over
/// the window instead. The share comes from the device and user id (FNV-1a), so it is the same
/// at every start of one daemon and differs between daemons.
public struct FleetSpread: Sendable, Equatable {
    /// The daemon's place in any window, in [0, 1).
    public let share: Double

    /// The share of the daemon identified by `key` (its device id and user id).
    public init(key: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        // The top 53 bits: a double in [0, 1) without rounding up to 1.
        share = Double(hash >> 11) / Double(UInt64(1) << 53)
    }

    /// This daemon's offset in a window of `windowMillis` (0 for an empty window).
    public func offsetMillis(window windowMillis: Int64) -> Int64 {
        windowMillis <= 0 ? 0 : min(windowMillis - 1, Int64(Double(windowMillis) * share))
    }
}
