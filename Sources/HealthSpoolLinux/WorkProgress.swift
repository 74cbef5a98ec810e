import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Whether one kind of work (imports, sync jobs) is under way and when it last moved on, for
/// the watchdog (`WatchdogPolicy`): the worker calls `begin`, `advance` and `end` from its own
/// threads; the keep-alive thread reads `lastProgressMicros`. Lock-free, no descriptors.
public final class WorkProgress: Sendable {
    /// What the work is called in the log ("the import", "sync").
    public let name: String
    private let active = Atomic<Int>(0)
    private let last = Atomic<UInt64>(0)

    public init(name: String) { self.name = name }

    /// A piece of this work starts (counts as progress).
    public func begin() {
        last.store(Self.monotonicMicros(), ordering: .relaxed)
        active.wrappingAdd(1, ordering: .relaxed)
    }

    /// The work moved on (bytes parsed, a batch committed or answered).
    public func advance() { last.store(Self.monotonicMicros(), ordering: .relaxed) }

    /// A piece of this work ended.
    public func end() {
        last.store(Self.monotonicMicros(), ordering: .relaxed)
        active.wrappingSubtract(1, ordering: .relaxed)
    }

    /// When the work last moved on (monotonic microseconds); nil while none is under way.
    public var lastProgressMicros: UInt64? {
        active.load(ordering: .relaxed) > 0 ? last.load(ordering: .relaxed) : nil
    }

    static func monotonicMicros() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
