import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging
import ServiceLifecycle
import Testing
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's sync part driven as it runs in the daemon — coordinator, real sync worker,
/// real SQLite store — with a manual clock and a fake transport in place of libcurl: the
/// per-type throttle, the lock flag, the retry after a temporary failure, and a stop in bounded
/// time. The coordinator is an actor on the test's coordination queue; the `SyncService`
/// handles the worker's reports, in a service group, as in the daemon. Time moves only when
/// the test advances the clock.
@Suite(.timeLimit(.minutes(1))) final class SyncServiceTests {
    let dir: String
    let clock = ManualServiceClock()
    let gateway = FakeGateway()
    let queue = DispatchQueue(label: "test.coordination")
    let executor: QueueExecutor
    let sync: SyncCoordinator
    let store: SampleStore
    let changes = AsyncStream<Void>.makeStream()
    var added = 0
    /// The stop budget of the sync service (its clock starts at `stopWithBudget`).
    let budget: StopBudget
    let group: ServiceGroup
    let running: Task<Void, any Error>

    init() async throws {
        var template = Array("/tmp/healthspool-sync-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let context = try Configuration(environment: ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run"],
                                        overrides: [("gateway.url", "https://gw.test/ingest"), ("sync.throttle_seconds", "60"),
                                                    ("retry.base_seconds", "30"), ("sync.senders", "1"),
                                                    ("sync.spread_seconds", "0")])
        let gateway = self.gateway
        executor = QueueExecutor(queue: queue)
        let sync = SyncCoordinator(configuration: context, logger: Logger(label: "test"), executor: executor, clock: clock,
                                   metrics: DaemonMetrics(storePath: context.storePath, started: clock.now()), transport: { _ in gateway })
        self.sync = sync
        let changes = self.changes.continuation
        await sync.connect(changed: { changes.yield() })
        try sync.open()
        store = try SampleStore.connect(to: context)
        budget = StopBudget(seconds: 10, clock: clock)
        let service = SyncService(sync: sync, budget: budget, beginStop: { Task { await sync.beginStop() } })
        group = ServiceGroup(services: [service], logger: Logger(label: "test"))
        let group = self.group
        running = Task { try await group.run() }
    }

    deinit {
        running.cancel()
        _ = try? FileSystem.removeTree(dir)
    }

    /// Stores `count` new heart-rate samples (queued for sync).
    func addSamples(_ count: Int) throws {
        let samples = (0..<count).map { i in
            let t = Timestamp(millis: 1_767_200_000_000 + Int64(added + i) * 60_000, utcOffsetSeconds: 0)
            return Sample(type: "heartRate", value: 60 + Double(i), unit: "count/min", start: t, source: SampleSource(name: "strap"))
        }
        added += count
        _ = try store.insert(samples, now: clock.now())
    }

    func queued() throws -> Int { try store.queuedCounts()["heartRate"] ?? 0 }

    /// Runs `body` on the coordination queue.
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in queue.async { c.resume(returning: body()) } }
    }

    /// Returns once every job handed to the worker has reported back (woken by the
    /// coordinator's change notices, not by polling).
    func settled() async {
        var notices = changes.stream.makeAsyncIterator()
        while await sync.pendingJobs > 0 { _ = await notices.next() }
        await onQueue {}
    }

    func observe() async {
        await sync.observe(["heartRate"])
        await settled()
    }

    func advance(seconds: Int64) async {
        clock.advance(by: seconds * 1000)
        await onQueue {}   // the timers that came due have run
        await settled()
    }

    @Test func theStatusLineCountsTheQueueOnlyUpToItsLimit() async throws {
        let sync = self.sync
        try addSamples(3)
        let few = await sync.queuedCountText(limit: 5)
        #expect(few == "3")
        try addSamples(4)
        let many = await sync.queuedCountText(limit: 5)
        #expect(many == "more than 5")
        let exact = await sync.queuedCountText()
        #expect(exact == "7")
    }

    /// Issue 32: a fleet started in the same second spreads its catch-up; each daemon waits
    /// for its share of sync.spread_seconds (from its device and user id), then sends at once.
    @Test func theStartUpCatchUpWaitsForThisDaemonsShareOfTheSpreadWindow() async throws {
        let context = try Configuration(environment: ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run"],
                                        overrides: [("gateway.url", "https://gw.test/ingest"), ("sync.senders", "1"),
                                                    ("sync.spread_seconds", "60"), ("device.id", "laptop-7"), ("user.id", "alice")])
        let gateway = self.gateway
        let spread = SyncCoordinator(configuration: context, logger: Logger(label: "test"), executor: executor, clock: clock,
                                     metrics: DaemonMetrics(storePath: context.storePath, started: clock.now()), transport: { _ in gateway })
        let notices = AsyncStream<Void>.makeStream()
        await spread.connect(changed: { notices.continuation.yield() })
        let reports = Task { await spread.receiveReports() }
        defer { reports.cancel() }
        var it = notices.stream.makeAsyncIterator()
        func settle() async {
            await onQueue {}
            while await spread.pendingJobs > 0 { _ = await it.next() }
        }
        try spread.open()
        let share = FleetSpread(key: "laptop-7/alice").offsetMillis(window: 60_000)
        try addSamples(3)
        await spread.catchUp(.startup)
        await settle()
        #expect(gateway.posts == 0, "held for the daemon's share of the window")
        clock.advance(by: share - 1)
        await settle()
        #expect(gateway.posts == 0)
        clock.advance(by: 1)
        await settle()
        #expect(gateway.posts == 1)
        #expect(try queued() == 0)
    }

    @Test func aTypeSyncsAtOnceThenAtMostOncePerThrottleWindow() async throws {
        try addSamples(3)
        await observe()
        #expect(gateway.posts == 1)
        #expect(try queued() == 0)

        try addSamples(2)
        await advance(seconds: 10)
        await observe()
        #expect(gateway.posts == 1, "inside the window the trigger is coalesced, not sent")
        await advance(seconds: 49)
        #expect(gateway.posts == 1)
        #expect(try queued() == 2)
        await advance(seconds: 1)
        #expect(gateway.posts == 2, "one trailing sync at the window's end")
        #expect(try queued() == 0)
    }

    /// "Sync now" from the web (issue 41): a call into the coordinator, not its control socket.
    /// Inside the throttle window it sends at once, and its stream tells the type finished and
    /// ends with the outcome.
    @Test func syncNowInTheProcessSendsPastTheThrottleAndEndsWithTheOutcome() async throws {
        try addSamples(3)
        await observe()
        try addSamples(2)
        await advance(seconds: 10)   // inside the throttle window
        var finished: [String: Int] = [:]
        var outcome: [SyncJobResult]?
        for await event in await ManualSync(coordinator: sync).start() {
            switch event {
            case let .finished(r): finished[r.type] = r.sent
            case .inFlight: break
            case let .done(results): outcome = results
            case let .refused(why): Issue.record("refused: \(why)")
            }
        }
        #expect(finished == ["heartRate": 2])
        let results = try #require(outcome)
        #expect(results.map(\.type) == ["heartRate"] && results.outcome == .success)
        #expect(gateway.posts == 2)
        #expect(try queued() == 0)
    }

    /// While locked "Sync now" is refused with the reason the page shows; with nothing queued it
    /// is done at once, having sent nothing.
    @Test func syncNowInTheProcessIsRefusedWhileLockedAndDoneAtOnceWithNothingQueued() async throws {
        await sync.setLocked(true)
        var refused: String?
        for await event in await ManualSync(coordinator: sync).start() {
            if case let .refused(why) = event { refused = why }
        }
        #expect(refused == "locked: nothing is sent until 'healthspool unlock'")
        await sync.setLocked(false)
        var done: [SyncJobResult]?
        for await event in await ManualSync(coordinator: sync).start() {
            if case let .done(results) = event { done = results }
        }
        #expect(done?.isEmpty == true)
        #expect(gateway.posts == 0)
    }

    @Test func nothingIsSentWhileLockedAndWhatWaitedDrainsAtUnlock() async throws {
        try addSamples(4)
        await sync.setLocked(true)
        await observe()
        await advance(seconds: 3600)
        #expect(gateway.posts == 0)
        #expect(try queued() == 4)

        await sync.setLocked(false)
        await settled()
        #expect(gateway.posts == 1)
        #expect(try queued() == 0)
    }

    @Test func aTemporaryFailureIsRetriedAfterTheBackoffAndNotBefore() async throws {
        try addSamples(2)
        gateway.answer(503)
        await observe()
        #expect(gateway.posts == 1)
        #expect(try queued() == 2, "the gateway was busy: nothing marked synced")
        let scheduled = await sync.scheduler.retryAt["heartRate"]
        let retryAt = try #require(scheduled)
        let wait = retryAt - clock.now().millis
        #expect(wait >= 0 && wait < 30_000, "first retry at a random moment within retry.base_seconds (full jitter)")

        if wait >= 1_000 {
            await advance(seconds: wait / 1000 - 1)
            #expect(gateway.posts == 1, "not before the backoff")
        }
        await advance(seconds: 2)
        #expect(gateway.posts == 2)
        #expect(try queued() == 0)
        let (incident, outcome) = (await sync.policy.incident, await sync.lastOutcome)
        #expect(incident == nil && outcome == "success")
    }

    /// Triggers the sync service's graceful shutdown under its stop budget of 10 s on the manual
    /// clock: the daemon's stop, without signals.
    func stopWithBudget() async -> (StopBudget, Task<Void, any Error>) {
        budget.begin()
        await group.triggerGracefulShutdown()
        return (budget, running)
    }

    @Test func aStopEndsWithinTheBudgetAndTheBatchInFlightStaysQueued() async throws {
        try addSamples(5)
        gateway.holdNextRequest()
        await sync.observe(["heartRate"])
        await gateway.nextArrival()

        let (budget, running) = await stopWithBudget()
        clock.advance(by: 9_999)
        clock.advance(by: 1)
        try await running.value
        #expect(budget.outcome.unfinished == ["sync"], "the held batch was still in flight at the deadline")
        #expect(budget.outcome.millis == 10_000)

        gateway.letGo()
        await sync.worker.idle()
        #expect(try queued() == 5, "an unanswered batch stays queued for the next start")
        #expect(gateway.posts == 1, "no new job after the stop")
    }

    @Test func aStopWaitsForTheBatchInFlightAndItsSamplesAreMarkedSynced() async throws {
        try addSamples(5)
        gateway.holdNextRequest(thenAnswer: 200)
        await sync.observe(["heartRate"])
        await gateway.nextArrival()

        let (budget, running) = await stopWithBudget()
        clock.advance(by: 9_000)
        gateway.letGo()
        try await running.value
        #expect(budget.outcome.unfinished.isEmpty, "the batch was answered before the deadline")
        await settled()
        #expect(try queued() == 0, "the answered batch is marked synced before the stop ends")
        #expect(gateway.posts == 1)
    }
}
