/// When to send systemd's keep-alive (`WATCHDOG=1`), given the coordinator's heartbeat.
///
/// A dedicated thread, which runs no SQLite and no curl, asks every `pingIntervalMicros`
/// (a quarter of `WatchdogSec`) and pings while the coordinator's last heartbeat is recent. A
/// coordinator busy in a slow SQLite call (a write waits up to the store's 5 s busy timeout)
/// keeps its keep-alives; one silent for longer than `WatchdogSec` is taken as hung: the pings
/// stop, and systemd restarts the daemon `WatchdogSec` later.
public struct WatchdogPolicy: Sendable, Equatable {
    /// systemd's watchdog interval (`WATCHDOG_USEC`), in microseconds.
    public let intervalMicros: UInt64

    public init(intervalMicros: UInt64) { self.intervalMicros = max(intervalMicros, 4) }

    /// How often the keep-alive thread wakes, and how often the coordinator beats.
    public var pingIntervalMicros: UInt64 { intervalMicros / 4 }

    /// How long the coordinator may stay silent before the keep-alives stop.
    public var staleAfterMicros: UInt64 { intervalMicros }

    /// Whether to ping at `nowMicros` (a monotonic clock) when the coordinator last beat at
    /// `lastBeatMicros` on the same clock.
    public func shouldPing(nowMicros: UInt64, lastBeatMicros: UInt64) -> Bool {
        nowMicros < lastBeatMicros || nowMicros - lastBeatMicros < staleAfterMicros
    }
}
