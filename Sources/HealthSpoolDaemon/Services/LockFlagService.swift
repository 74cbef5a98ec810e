import HealthSpoolLinux
import ServiceLifecycle

/// The lock flag's watcher (inotify on the state directory, where `healthspool lock` puts the
/// flag): the service makes it once start-up has made the directories (`WatcherStart`), owns
/// it and consumes its events: the flag set or cleared takes or lets go of the flag's hold on
/// the lock (`Daemon.setHold`, on the coordination queue); lost events read the flag again.
/// It stops with the intake's watchers; the watcher is stopped before `run()` returns.
struct LockFlagService: Service {
    let stateDir: String
    /// The flag's name in `stateDir`.
    let flag: String
    let start: WatcherStart
    /// The flag's hold: set (true) or let go.
    let hold: @Sendable (Bool) async -> Void
    /// Reads the flag again and sets its hold to match (`Daemon.followFlag`).
    let followFlag: @Sendable () async -> Void
    let beginStop: @Sendable () -> Void

    func run() async throws {
        guard let watch = await start.watch({ try DirectoryWatch(directories: [stateDir], label: "healthspool.watch.flag") }) else {
            return await untilShutdown()
        }
        for await event in watch.events.cancelOnGracefulShutdown() {
            switch event {
            case let .fileReady(dir, name) where dir == stateDir && name == flag: await hold(true)
            case let .fileGone(dir, name) where dir == stateDir && name == flag: await hold(false)
            case .overflow: await followFlag()
            default: break
            }
        }
        beginStop()
        watch.stop()
    }
}
