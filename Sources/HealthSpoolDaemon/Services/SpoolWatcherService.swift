import HealthSpoolLinux
import Logging
import ServiceLifecycle

/// The spool's watcher (inotify on the spool directory): the service makes it once start-up has
/// made the spool (`WatcherStart`), owns it and consumes its events, each handed to the intake
/// (a file ready admitted, a file gone forgotten, a name that is not UTF-8 or lost events a
/// rescan). It stops first of the intake, so no new work arrives while the rest stops; the
/// watcher is stopped (its descriptor closed) before `run()` returns.
struct SpoolWatcherService: Service {
    let spool: String
    let intake: SpoolIntake
    let logger: Logger
    let start: WatcherStart
    /// Brings the lock flag's hold up to date with the file (`Daemon.followFlag`) before a
    /// file is admitted: the flag has a watcher of its own, whose event may come after the
    /// spool's when a flag set and a file dropped come an instant apart.
    let followFlag: @Sendable () async -> Void
    let beginStop: @Sendable () -> Void

    func run() async throws {
        guard let watch = await start.watch({ try DirectoryWatch(directories: [spool], label: "healthspool.watch.spool") }) else {
            return await untilShutdown()
        }
        for await event in watch.events.cancelOnGracefulShutdown() {
            await handle(event)
        }
        beginStop()
        watch.stop()
    }

    private func handle(_ event: WatchEvent) async {
        switch event {
        case let .fileReady(dir, name) where dir == spool:
            await followFlag()
            await intake.admit(named: name)
        case let .fileGone(dir, name) where dir == spool:
            await intake.left(named: name)
        case let .undecodableName(dir) where dir == spool:
            await intake.rescan()
        case .overflow:
            logger.warning("inotify queue overflowed; rescanning the spool", metadata: ["event": "import"])
            await intake.rescan()
        default:
            break
        }
    }
}
