import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging
import ServiceLifecycle
import UnixSignals

/// The daemon's long-running parts, each a `Service`, in order of dependency: a service may
/// rely on those listed before it. `ServiceGroup` starts them together and, on SIGTERM or
/// SIGINT, stops them one by one in reverse: intake first (reload, retention, control socket,
/// spool watcher), then the import in progress, then the sync worker's batch in flight, and the
/// status last. A new long-running part (journal scheduler, web interface, location sampler)
/// is one more entry in `Daemon.services`.
extension Daemon {
    /// The services, in order of dependency.
    var services: [any Service] {
        let stop: @Sendable () -> Void = { [weak self] in self?.beginStop() }
        let stores = self.stores
        let services: [any Service] = [
            StatusService(start: { [self] in try await startOffPool() }, beginStop: stop, finishStop: { [self] in await finishStop() }),
            SyncService(sync: sync, budget: stopBudget, beginStop: stop),
            ImportService(intake: intake, budget: stopBudget, beginStop: stop),
            SpoolWatcherService(spool: configuration.spool.path, intake: intake, logger: logger, start: watcherStart,
                                followFlag: { [self] in await followFlag(on: status) }, beginStop: stop),
            LockFlagService(stateDir: configuration.stateDir, flag: "locked", start: watcherStart,
                            hold: { [self] set in await setHold(.flag, set, on: status) },
                            followFlag: { [self] in await followFlag(on: status) }, beginStop: stop),
            SessionLockService(mode: configuration.settings.lockFollowSession, environment: configuration.environment, logger: logger,
                               route: { [self] event in await sessionEvent(event, on: status) },
                               known: { [sessionLockKnown] in sessionLockKnown.signal() }),
            ControlService(requests: controlRequests, sync: sync, beginStop: stop, closeSocket: { [self] in closeControl() }),
            RetentionService(intake: intake, clock: clock, logger: logger, started: startedUp, beginStop: stop),
            ReloadService(configDir: configuration.paths.configDir, start: watcherStart, secretFiles: secretFiles, logger: logger,
                          reload: { [self] reason, restart in await reload(reason: reason, restartingSync: restart, on: status) },
                          beginStop: stop),
            JournalWritesService(writes: stores.journalWrites, sync: sync),
            JournalService(configuration: configuration, logger: logger, announce: { stores.announce($0) }),
            MetricsTextfileService(metrics: metrics, clock: clock, logger: logger) {   // written once the daemon has started
                await self.onQueue { self.started ? self.configuration.settings.metricsTextfile.map(self.configuration.paths.expand) : nil }
            },
        ]
        let location: [any Service] = configuration.settings.locationEnabled ? [LocationService(sampler: locationSampler())] : []
        return services + location + extraServices
    }

    /// The location log's sampler, on a connection of its own to the store.
    private func locationSampler() -> LocationSampler {
        let configuration = configuration
        return LocationSampler(settings: configuration.settings, connect: { try SampleStore.connect(to: configuration) }, logger: logger)
    }

    /// The group that runs them: SIGTERM and SIGINT stop it gracefully; a stop that somehow
    /// outlives every service's own bound is cut at `maximumStopSeconds`.
    func serviceGroup() -> ServiceGroup {
        var config = ServiceGroupConfiguration(services: services.map(NamedService.init), gracefulShutdownSignals: [.sigterm, .sigint],
                                               logger: logger)
        config.maximumGracefulShutdownDuration = .seconds(Self.maximumStopSeconds)
        return ServiceGroup(configuration: config)
    }

    /// The group's backstop, under the unit's `TimeoutStopSec=30`.
    static let maximumStopSeconds = 20

    /// Closes the control socket at a stop; the requests already read are still answered.
    func closeControl() {
        q.async {
            self.control?.stop()
            self.controlReporter.finish()
        }
    }
}

/// A service as the group's debug lines name it ("Starting service sl-service=…"): its type
/// alone. swift-service-lifecycle describes a service by its fields, and some hold the process's
/// environment or its configuration, which the log must never show.
struct NamedService: Service, CustomStringConvertible {
    let service: any Service
    var description: String { String(describing: type(of: service)) }
    func run() async throws { try await service.run() }
}

/// Waits for the group's graceful shutdown (or its cancellation).
func untilShutdown() async {
    try? await gracefulShutdown()
}

/// The status: `READY=1` and the status file while running (published by the coordinator), and
/// at the very end of a stop the final status, the watchdog stopped and the one "stopped" line.
///
/// Its `run()` stays the daemon's start/stop bracket rather than a loop of its own: the status
/// board has no sequence to consume (every part tells it of a change on the coordination
/// queue, the watchdog beats on a thread of its own), and being first in the group it starts
/// the daemon before the others have work and is told to stop only after all of them ended,
/// so its final status and "stopped" line come last.
struct StatusService: Service {
    /// Starts the daemon (`Daemon.start`, off the cooperative pool); throws when it cannot.
    let start: @Sendable () async throws -> Void
    let beginStop: @Sendable () -> Void
    /// The final status, the watchdog stopped, the "stopped" line.
    let finishStop: @Sendable () async -> Void
    func run() async throws {
        try await start()
        await untilShutdown()
        beginStop()
        await finishStop()
    }
}

/// The sync part (`SyncCoordinator`: scheduler, retry policy, worker): its work is the
/// worker's reports, handled as they come (results, progress). On a stop the worker takes no
/// new job and each sender finishes its batch in flight; the reports end once those are
/// answered, or the stop budget runs out first (an unanswered batch stays queued and is sent
/// at the next start).
struct SyncService: Service {
    let sync: SyncCoordinator
    let budget: StopBudget
    let beginStop: @Sendable () -> Void
    func run() async throws {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await sync.receiveReports()
                return true
            }
            await untilShutdown()
            beginStop()
            await sync.beginStop()   // also when the daemon never started (the reports end at once)
            group.addTask {
                await budget.untilDeadline()
                return false
            }
            if await group.next() == false { budget.unfinished("sync") }
            group.cancelAll()
        }
    }
}

/// The spool intake (`SpoolIntake`): its work is the imports' outcomes, each handled on the
/// intake as it comes (logged, counted, the types gained observed, the next import started).
/// On a stop the import in progress ends at its next batch boundary (what it committed is kept,
/// the file stays in the spool); the outcomes end once it has reported, or the stop budget runs
/// out first (the import is resumed at the next start).
struct ImportService: Service {
    let intake: SpoolIntake
    let budget: StopBudget
    let beginStop: @Sendable () -> Void
    func run() async throws {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await intake.receiveOutcomes()
                return true
            }
            await untilShutdown()
            beginStop()
            await intake.finishOutcomes()
            group.addTask {
                await budget.untilDeadline()
                return false
            }
            if await group.next() == false { budget.unfinished("import") }
            group.cancelAll()
        }
    }
}

/// The logind session's lock and suspends (`lock.follow_session`): owns the
/// `SessionLockWatcher` (its thread and sd-bus connection) and consumes its events, each routed
/// on the coordination queue (`Daemon.sessionEvent`: the session's and the sleep's holds on the
/// lock). Tells `known` once the first state is known, or that none will be (off, or no
/// watcher), so that start-up reads the spool knowing whether the session is locked.
struct SessionLockService: Service {
    let mode: SessionFollow
    let environment: [String: String]
    let logger: Logger
    let route: @Sendable (SessionLockEvent) async -> Void
    let known: @Sendable () -> Void
    func run() async throws {
        guard mode != .off else { return await untilShutdown() }
        let watcher: SessionLockWatcher
        do { watcher = try SessionLockWatcher(mode: mode, environment: environment) } catch {
            logger.warning("cannot follow the session lock: \(error); the lock flag alone", metadata: ["event": "lock"])
            known()
            return await untilShutdown()
        }
        for await event in watcher.events.cancelOnGracefulShutdown() {
            if event == .settled { known() } else { await route(event) }
        }
        watcher.stop()
    }
}

/// The control socket (`healthspool sync`, `ping`, `observe`): its work is the socket's
/// requests, each handed to the sync coordinator in the order they came. At a stop the socket
/// is closed and the requests already read are still answered; then `run()` ends.
struct ControlService: Service {
    /// The requests the socket read, in order.
    let requests: AsyncStream<ControlRequest>
    let sync: SyncCoordinator
    let beginStop: @Sendable () -> Void
    /// Closes the socket and ends `requests` after those already read.
    let closeSocket: @Sendable () -> Void
    func run() async throws {
        await withGracefulShutdownHandler {
            for await request in requests {
                await sync.handleControl(request.json, client: request.client)
            }
        } onGracefulShutdown: {
            beginStop()
            closeSocket()
        }
    }
}

/// The journal's writes made in this process (the web's forms, the journal scheduler's scores
/// and doses), handed to the sync coordinator as they come, as the intake's gained types are:
/// calls inside the process, not the control socket (which stays for other processes).
struct JournalWritesService: Service {
    /// The pool's `journalWrites`.
    let writes: AsyncStream<[String]>
    let sync: SyncCoordinator
    func run() async throws {
        for await types in writes.cancelOnGracefulShutdown() {
            await sync.observe(types)
        }
    }
}

/// The location keep-alive log (opt-in, `location.enabled`): records a position from gpsd every
/// `location.interval_seconds` until the stop.
struct LocationService: Service {
    let sampler: LocationSampler
    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await sampler.run() }
            await untilShutdown()
            sampler.stop()
            await group.waitForAll()
        }
    }
}

/// The journal's scheduler: reminders at their minute (desktop notification and journal entry;
/// "Taken" logs the dose) and the past day's symptom scores at local midnight, on a thread of
/// its own (`JournalScheduler`). Cancelled at a stop.
struct JournalService: Service {
    let configuration: Configuration
    let logger: Logger
    /// Where the scheduler's writes are announced (the pool's `journalWrites`: `StorePool.announce`).
    let announce: @Sendable ([String]) -> Void
    func run() async throws {
        let scheduler = JournalScheduler(configuration: configuration, logger: logger, executor: try ThreadExecutor(name: "journal"),
                                         announce: announce)
        await cancelWhenGracefulShutdown { await scheduler.run() }
    }
}
