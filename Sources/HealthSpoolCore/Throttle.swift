/// What the throttle says about a trigger.
public enum ThrottleDecision: Equatable, Sendable {
    /// Sync this type now; a window opens.
    case syncNow
    /// A window is open: the trigger is coalesced into one trailing sync at `at` (millis).
    case deferred(until: Int64)
}

/// Per-type observer throttle: at most one sync trigger per type per window. The first trigger
/// syncs at once and opens a window; triggers inside the window coalesce into one trailing
/// sync at the window's end — never dropped. Time is an input.
public struct Throttle: Sendable, Equatable {
    /// Window length in milliseconds.
    public var windowMillis: Int64
    private var windowEnd: [String: Int64] = [:]
    private var pending: Set<String> = []

    public init(windowMillis: Int64 = 60_000) { self.windowMillis = windowMillis }

    /// Records a trigger for `type` at `now`.
    public mutating func record(_ type: String, now: Int64) -> ThrottleDecision {
        if let end = windowEnd[type], now < end {
            pending.insert(type)
            return .deferred(until: end)
        }
        windowEnd[type] = now + windowMillis
        return .syncNow
    }

    /// Types whose window has ended with a coalesced trigger waiting: each syncs now, and a new
    /// window opens for it (the trailing sync counts as a trigger).
    public mutating func due(now: Int64) -> [String] {
        let ready = pending.filter { (windowEnd[$0] ?? 0) <= now }.sorted()
        for t in ready {
            pending.remove(t)
            windowEnd[t] = now + windowMillis
        }
        return ready
    }

    /// When the next trailing sync is due, if any.
    public var nextDeadline: Int64? { pending.compactMap { windowEnd[$0] }.min() }
}
