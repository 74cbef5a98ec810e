/// What started a sync.
public enum SyncTrigger: String, Sendable, CaseIterable {
    /// A file import added samples of the type (HKObserverQuery).
    case observer
    /// A coalesced trigger at the end of a throttle window.
    case throttle
    /// Catch-up at daemon start.
    case startup
    /// `healthspool sync` (bypasses the throttle).
    case manual
    /// The hourly/daily schedule, or an hourly type's hour.
    case schedule
    /// The lock flag was released.
    case unlock
    /// The gateway answered again after failures.
    case network
    /// Backoff after a failed attempt.
    case retry
    /// The configuration changed (a gateway was set, credentials fixed).
    case reload
}

/// An action the scheduler asks the daemon to carry out.
public enum SchedulerAction: Equatable, Sendable {
    /// Sync these types now.
    case sync([String], SyncTrigger)
}

/// Decides when each type syncs: per-type throttle, per-type delivery frequency (immediate or
/// hourly), the global sync frequency (realtime, hourly, daily, manual) and the lock flag.
/// A pure state machine: events in, actions out; time (Unix millis) is passed in.
public struct SyncScheduler: Sendable {
    public var frequency: SyncFrequency
    public var throttle: Throttle
    /// The delivery frequency of each type.
    public var deliveryFrequency: @Sendable (String) -> DeliveryFrequency
    /// Types waiting for the next hour / schedule boundary.
    public private(set) var waitingForSchedule: Set<String> = []
    /// Types that changed while locked.
    public private(set) var waitingForUnlock: Set<String> = []
    /// Retry deadlines by type.
    public private(set) var retryAt: [String: Int64] = [:]
    public private(set) var locked = false
    /// Where this daemon's hourly and daily boundaries fall after the clock's (its share of the
    /// spread window, `FleetSpread`): a fleet's hourly types do not all go out at :00:00.
    public var boundaryOffsetMillis: Int64 = 0
    /// Until then nothing syncs on its own (the start-up spread); what comes up waits in `held`.
    public private(set) var heldUntil: Int64?
    /// Types that came up during the hold: found queued at start (`startup`), or imported.
    public private(set) var held: Set<String> = []
    private var heldAtStart: Set<String> = []
    private var nextBoundary: Int64?

    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    public init(frequency: SyncFrequency, throttleMillis: Int64,
                deliveryFrequency: @escaping @Sendable (String) -> DeliveryFrequency) {
        self.frequency = frequency
        self.throttle = Throttle(windowMillis: throttleMillis)
        self.deliveryFrequency = deliveryFrequency
    }

    /// The next hour (or day, for daily) boundary after `now`, moved by `boundaryOffsetMillis`.
    func boundary(after now: Int64, period: Int64) -> Int64 {
        let offset = min(max(0, boundaryOffsetMillis), period - 1)
        return ((now - offset) / period + 1) * period + offset
    }

    /// Holds every sync that is not asked for by hand until `until` (the daemon's start-up
    /// spread): the types that come up meanwhile sync then, together, as a start-up catch-up.
    public mutating func hold(until: Int64) {
        heldUntil = until
    }

    /// A type gained samples (observer) or was found queued at start-up.
    public mutating func observe(_ types: [String], trigger: SyncTrigger = .observer, now: Int64) -> [SchedulerAction] {
        if locked { waitingForUnlock.formUnion(types); return [] }
        if let until = heldUntil, now < until {
            held.formUnion(types)
            if trigger == .startup { heldAtStart.formUnion(types) }
            return []
        }
        switch frequency {
        case .manual:
            return []
        case .hourly, .daily:
            waitingForSchedule.formUnion(types)
            if nextBoundary == nil { nextBoundary = boundary(after: now, period: frequency == .daily ? Self.day : Self.hour) }
            return []
        case .realtime:
            var now_: [String] = []
            for t in types {
                if deliveryFrequency(t) == .hourly && trigger != .startup {
                    waitingForSchedule.insert(t)
                    if nextBoundary == nil { nextBoundary = boundary(after: now, period: Self.hour) }
                } else if case .syncNow = throttle.record(t, now: now) {
                    now_.append(t)
                }
            }
            return now_.isEmpty ? [] : [.sync(now_.sorted(), trigger)]
        }
    }

    /// `healthspool sync`: syncs at once, bypassing throttle and schedule (not the lock).
    public mutating func manual(_ types: [String]) -> [SchedulerAction] { syncNow(types, trigger: .manual) }

    /// Syncs `types` at once, bypassing throttle, schedule and pending retries (not the lock):
    /// `healthspool sync`, a configuration change, the gateway answering again.
    public mutating func syncNow(_ types: [String], trigger: SyncTrigger) -> [SchedulerAction] {
        guard !types.isEmpty, !locked else { return [] }
        for t in types { waitingForSchedule.remove(t); retryAt[t] = nil; held.remove(t); heldAtStart.remove(t) }
        return [.sync(types.sorted(), trigger)]
    }

    /// The lock flag was set or released. On release, everything that waited drains, each type
    /// still throttled.
    public mutating func setLocked(_ value: Bool, queuedTypes: [String], now: Int64) -> [SchedulerAction] {
        guard value != locked else { return [] }
        locked = value
        if value { return [] }
        let types = waitingForUnlock.union(queuedTypes).sorted()
        waitingForUnlock.removeAll()
        return observe(types, trigger: .unlock, now: now)
    }

    /// A sync of `type` failed in a way worth retrying: try again at `at`.
    public mutating func scheduleRetry(_ type: String, at: Int64) {
        retryAt[type] = min(retryAt[type] ?? .max, at)
    }

    /// Forgets every pending retry (the configuration changed: they are tried at once).
    public mutating func clearRetries() { retryAt.removeAll() }

    /// A sync of `type` succeeded: any retry waiting for it is moot.
    public mutating func succeeded(_ type: String) { retryAt[type] = nil }

    /// Runs what is due at `now`: trailing throttle syncs, the schedule boundary, retries.
    public mutating func tick(now: Int64) -> [SchedulerAction] {
        if locked { return [] }
        var actions: [SchedulerAction] = []
        if let until = heldUntil, now >= until {
            // What was queued at start syncs as the start-up catch-up (hourly types too); what
            // was imported meanwhile as if it had just been imported (hourly types wait).
            heldUntil = nil
            let atStart = heldAtStart.sorted(), imported = held.subtracting(heldAtStart).sorted()
            held.removeAll()
            heldAtStart.removeAll()
            if !atStart.isEmpty { actions += observe(atStart, trigger: .startup, now: now) }
            if !imported.isEmpty { actions += observe(imported, trigger: .observer, now: now) }
        }
        let trailing = throttle.due(now: now)
        if !trailing.isEmpty { actions.append(.sync(trailing, .throttle)) }
        if let b = nextBoundary, now >= b {
            nextBoundary = nil
            let types = waitingForSchedule.sorted()
            waitingForSchedule.removeAll()
            if !types.isEmpty, frequency != .manual { actions.append(.sync(types, .schedule)) }
        }
        let retries = retryAt.filter { $0.value <= now }.keys.sorted()
        for t in retries { retryAt[t] = nil }
        if !retries.isEmpty { actions.append(.sync(retries, .retry)) }
        return actions
    }

    /// When `tick` next has something to do.
    public var nextDeadline: Int64? {
        if locked { return nil }
        return [heldUntil, throttle.nextDeadline, nextBoundary, retryAt.values.min()].compactMap { $0 }.min()
    }
}
