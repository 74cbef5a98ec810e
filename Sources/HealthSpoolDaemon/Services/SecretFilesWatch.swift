import HealthSpoolCore
import HealthSpoolLinux
import Logging

/// The watcher of the gateway's secret and TLS files (`ReloadService`): inotify on the
/// directories they are in, a file of the set written or moved in reloading the configuration
/// (restarting the sync part). Made again when the set changes, the old watcher stopped (its
/// descriptor closed, its events drained) before the new one is made.
struct SecretFilesWatch {
    let logger: Logger
    let reload: @Sendable (_ reason: String, _ restartingSync: Bool) async -> Void
    private var files: Set<String> = []
    /// The watcher's consumer, while there is a watcher.
    private var following: (watch: DirectoryWatch, task: Task<Void, Never>)?

    init(logger: Logger, reload: @escaping @Sendable (_ reason: String, _ restartingSync: Bool) async -> Void) {
        self.logger = logger
        self.reload = reload
    }

    /// Watches `wanted` (absolute paths), unless they are watched already. A set whose
    /// directories do not exist, or a watcher that cannot be made, is tried again at the next
    /// set.
    mutating func follow(_ wanted: Set<String>) async {
        guard wanted != files || following == nil else { return }
        await stop()
        files = wanted
        let directories = Set(wanted.map(FileSystem.parent)).filter { !$0.isEmpty && FileSystem.exists($0) }
        guard !directories.isEmpty else { return }
        let watch: DirectoryWatch
        do { watch = try DirectoryWatch(directories: directories.sorted(), label: "healthspool.watch.secrets") } catch {
            logger.warning("cannot watch the gateway's credentials and certificate files; SIGHUP reloads them: \(error)",
                           metadata: ["event": "error"])
            return
        }
        let reload = self.reload
        let task = Task {
            for await event in watch.events {
                if case let .fileReady(dir, name) = event, wanted.contains(dir + "/" + name) {
                    await reload("\(dir)/\(name) changed", true)
                }
            }
        }
        following = (watch, task)
    }

    /// Stops the watcher, if any, and waits until its events are handled.
    mutating func stop() async {
        guard let (watch, task) = following else { return }
        following = nil
        watch.stop()
        await task.value
    }
}
