import HealthSpoolLinux
import Logging
import ServiceLifecycle
import UnixSignals

/// What reloads the configuration: SIGHUP, and the config files' watchers, which this service
/// owns and consumes: inotify on the config directory (`healthspool.conf` changed) made once
/// start-up has made the directory (`WatcherStart`), and inotify on the directories of the
/// gateway's secret and TLS files (the credentials file, the systemd credential, the CA file,
/// the client certificate and key), made again whenever the set of those files changes: the
/// daemon hands the set at start and after each reload (`secretFiles`). Each watcher is stopped
/// (its descriptor closed) before the next is made and before `run()` returns.
struct ReloadService: Service {
    let configDir: String
    let start: WatcherStart
    /// The secret files to watch (absolute paths): the first before start-up meets the
    /// watchers, then one set after each reload.
    let secretFiles: AsyncStream<Set<String>>
    let logger: Logger
    /// Reloads the configuration for the reason given, restarting the sync part or not (on the
    /// coordination queue, `Daemon.reload`).
    let reload: @Sendable (_ reason: String, _ restartingSync: Bool) async -> Void
    let beginStop: @Sendable () -> Void

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in hangups.cancelOnGracefulShutdown() { await reload("SIGHUP", true) }
            }
            group.addTask { await followConfigFiles() }
            await group.waitForAll()
        }
        beginStop()
    }

    /// The config directory's watcher and the secret files' one, until the stop. Both are made
    /// before start-up goes on.
    private func followConfigFiles() async {
        var secretSets = secretFiles.cancelOnGracefulShutdown().makeAsyncIterator()
        var secrets = SecretFilesWatch(logger: logger, reload: reload)
        let made = await start.watch {
            let config = try DirectoryWatch(directories: [configDir], label: "healthspool.watch.config")
            if let first = await secretSets.next() { await secrets.follow(first) }
            return config
        }
        guard let config = made else { return await untilShutdown() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in config.events.cancelOnGracefulShutdown() {
                    if case let .fileReady(dir, name) = event, dir == configDir, name == "healthspool.conf" {
                        await reload("configuration file changed", false)
                    }
                }
                config.stop()
            }
            while let files = await secretSets.next() { await secrets.follow(files) }
            await secrets.stop()
            await group.waitForAll()
        }
    }
}
