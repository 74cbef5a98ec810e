import HealthSpoolCore
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Feeds systemd's watchdog from a thread of its own, so that SQLite or curl on the
/// coordination queue cannot starve the keep-alives. The coordinator proves it is alive with
/// `beat()`, the workers that they move on with their `WorkProgress`; the thread pings while the
/// last beat is recent and no work is stuck (`WatchdogPolicy`), on the socket the notifier
/// opened at start (no descriptor is needed per keep-alive).
public final class SystemdWatchdog: Sendable {
    public let policy: WatchdogPolicy
    private let notifier: SystemdNotifier
    private let logger: Logger
    private let lastBeat: Atomic<UInt64>
    private let stopped = Atomic<Bool>(false)
    private let pings = Atomic<UInt64>(0)
    private let work: [WorkProgress]

    /// How many keep-alives the thread has sent.
    public var keepAlives: UInt64 { pings.load(ordering: .relaxed) }

    /// A watchdog for the interval systemd asked for (`WATCHDOG_USEC`), or nil when it asked none.
    public convenience init?(notifier: SystemdNotifier, logger: Logger, work: [WorkProgress] = []) {
        guard let usec = notifier.watchdogMicroseconds else { return nil }
        self.init(policy: WatchdogPolicy(intervalMicros: usec), notifier: notifier, logger: logger, work: work)
    }

    public init(policy: WatchdogPolicy, notifier: SystemdNotifier, logger: Logger, work: [WorkProgress] = []) {
        self.policy = policy
        self.work = work
        self.notifier = notifier
        self.logger = logger
        lastBeat = Atomic(Self.monotonicMicros())
    }

    /// The coordinator is alive: called from its queue every `policy.pingIntervalMicros`.
    public func beat() { lastBeat.store(Self.monotonicMicros(), ordering: .relaxed) }

    /// Starts the keep-alive thread; false when no thread could be made.
    @discardableResult
    public func start() -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            let watchdog = Unmanaged<SystemdWatchdog>.fromOpaque(raw!).takeRetainedValue()
            watchdog.run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<SystemdWatchdog>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Ends the thread after its current sleep.
    public func stop() { stopped.store(true, ordering: .relaxed) }

    private func run() {
        var silent = false
        while !stopped.load(ordering: .relaxed) {
            let now = Self.monotonicMicros()
            let last = lastBeat.load(ordering: .relaxed)
            // The work that moved on least recently (a stuck one among several under way).
            let slowest = work.compactMap { w in w.lastProgressMicros.map { (w, $0) } }.min { $0.1 < $1.1 }
            switch policy.decide(nowMicros: now, lastBeatMicros: last, lastProgressMicros: slowest?.1) {
            case .ping:
                if silent {
                    silent = false
                    logger.notice("the daemon answers and progresses again; watchdog keep-alives resume", metadata: ["event": "watchdog"])
                }
                if notifier.watchdog() { _ = pings.wrappingAdd(1, ordering: .relaxed) }
            case .coordinatorSilent(let micros):
                if !silent {
                    silent = true
                    logger.critical("the coordinator has not answered for \(micros / 1_000_000) s; watchdog keep-alives stop and systemd will restart the daemon",
                                    metadata: ["event": "watchdog"])
                }
            case .workStalled(let micros):
                if !silent {
                    silent = true
                    logger.critical("\(slowest?.0.name ?? "work") has not moved on for \(micros / 1_000_000) s; watchdog keep-alives stop and systemd will restart the daemon",
                                    metadata: ["event": "watchdog"])
                }
            }
            Self.sleep(micros: policy.pingIntervalMicros)
        }
    }

    static func monotonicMicros() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }

    static func sleep(micros: UInt64) {
        var request = timespec(tv_sec: Int(micros / 1_000_000), tv_nsec: Int(micros % 1_000_000) * 1000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
