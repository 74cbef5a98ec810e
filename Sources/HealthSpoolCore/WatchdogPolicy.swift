/// When to send systemd's keep-alive (`WATCHDOG=1`): the coordinator answers, and no work in
/// progress is stuck.
///
/// A dedicated thread, which runs no SQLite and no curl, asks every `pingIntervalMicros`
/// (a quarter of `WatchdogSec`) and pings while both hold:
/// - **The coordinator answers**: its last heartbeat is less than `WatchdogSec` old. A
///   coordinator busy in a slow SQLite call (a write waits up to the store's 5 s busy timeout)
///   keeps its keep-alives; one silent for longer than `WatchdogSec` is taken as hung.
/// - **Work progresses or the daemon is idle**: each kind of work under way (the import of a
///   file; the sync jobs, whose senders share one mark) has moved on (bytes parsed, a batch answered) within `stallLimitMicros`
///   — the larger of 4 × `WatchdogSec` and 2 minutes, far longer than any one step takes (a
///   batch waits at most a few busy timeouts, a gateway request is cut off after its own
///   timeout). A file waiting for its retry after a temporary failure is not work under way.
///
/// When either fails, the pings stop and systemd restarts the daemon `WatchdogSec` later.
public struct WatchdogPolicy: Sendable, Equatable {
    /// systemd's watchdog interval (`WATCHDOG_USEC`), in microseconds.
    public let intervalMicros: UInt64

    public init(intervalMicros: UInt64) { self.intervalMicros = max(intervalMicros, 4) }

    /// How often the keep-alive thread wakes, and how often the coordinator beats.
    public var pingIntervalMicros: UInt64 { intervalMicros / 4 }

    /// How long the coordinator may stay silent before the keep-alives stop.
    public var staleAfterMicros: UInt64 { intervalMicros }

    /// How long work under way may go without progress before the keep-alives stop.
    public var stallLimitMicros: UInt64 { max(intervalMicros * 4, 120_000_000) }

    /// Whether to ping at `nowMicros` (a monotonic clock) when the coordinator last beat at
    /// `lastBeatMicros` and the work under way last progressed at `lastProgressMicros` (nil: no
    /// work under way), on the same clock.
    public func shouldPing(nowMicros: UInt64, lastBeatMicros: UInt64, lastProgressMicros: UInt64? = nil) -> Bool {
        decide(nowMicros: nowMicros, lastBeatMicros: lastBeatMicros, lastProgressMicros: lastProgressMicros) == .ping
    }

    /// What the keep-alive thread does, and why not when it does not ping.
    public enum Decision: Sendable, Equatable {
        case ping
        case coordinatorSilent(micros: UInt64)
        case workStalled(micros: UInt64)
    }

    public func decide(nowMicros: UInt64, lastBeatMicros: UInt64, lastProgressMicros: UInt64?) -> Decision {
        if nowMicros > lastBeatMicros, nowMicros - lastBeatMicros >= staleAfterMicros {
            return .coordinatorSilent(micros: nowMicros - lastBeatMicros)
        }
        if let last = lastProgressMicros, nowMicros > last, nowMicros - last >= stallLimitMicros {
            return .workStalled(micros: nowMicros - last)
        }
        return .ping
    }
}
