import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging

extension Daemon {
    /// Reads the configuration again and restarts only the parts whose settings changed: the
    /// schedule and retention take new values in place; the sync part (gateway, retries, the
    /// types sent) is restarted — its incident and retries forgotten, every queued type tried at
    /// once — when its settings changed, when a secret file changed or on SIGHUP (the user asked
    /// for it), and when sync had stopped on the old configuration. The intake and the
    /// coordinator share the board's executor: they are entered in the same step, so no job on
    /// the queue sees one part on the new configuration and another on the old.
    func reload(reason: String, restartingSync force: Bool = true, on status: isolated StatusBoard) {
        do {
            let fresh = keepingDirectories(try Configuration(environment: configuration.environment), on: status)
            let change = SettingsChange.between(configuration.settings, fresh.settings)
            let wasUnusable = status.reloadError != nil || sync.assumeIsolated { $0.isUnusable }   // same executor, same step
            configuration = fresh
            current.set(fresh)
            intake.assumeIsolated { $0.configuration = fresh }   // same executor, same step
            status.configuration = fresh
            status.reloadError = nil
            let restart = force || wasUnusable || change.contains(.sync)
            if !restart {
                logger.notice("configuration reloaded (\(reason)); the sync part is unchanged", metadata: ["event": "reload"])
            }
            sync.assumeIsolated { $0.reload(fresh, restart: restart) }   // same executor, same step
            if restart {
                watchSecrets()
                logger.notice("configuration reloaded (\(reason))", metadata: ["event": "reload"])
                // A configuration change takes effect at once: every queued type, throttle or not.
                sync.assumeIsolated { $0.syncEverythingQueued(.reload) }   // same executor, same step
            }
        } catch {
            status.reloadError = "\(error)"
            logger.error("configuration not reloaded, still running on the previous one: \(error)", metadata: ["event": "error"])
        }
        status.publish()
    }

    /// The configuration to use after a reload: the new settings, except the spool and state
    /// directories, which only a restart moves (the watcher, the store and the lock flag live
    /// there). A change to them is logged and shown in status until the daemon restarts.
    func keepingDirectories(_ fresh: Configuration, on status: isolated StatusBoard) -> Configuration {
        var notes: [String] = []
        var settings = fresh.settings
        if fresh.spool.path != configuration.spool.path {
            notes.append("spool.dir changed to \(fresh.spool.path): restart the daemon to use it (still watching \(configuration.spool.path))")
            settings.spoolDir = configuration.settings.spoolDir
        }
        if fresh.stateDir != configuration.stateDir {
            notes.append("state.dir changed to \(fresh.stateDir): restart the daemon to use it (still using \(configuration.stateDir))")
            settings.stateDir = configuration.settings.stateDir
        }
        for note in notes where !status.restartNeeded.contains(note) {
            logger.warning("\(note)", metadata: ["event": "reload"])
        }
        status.restartNeeded = notes
        return Configuration(paths: fresh.paths, settings: settings, environment: fresh.environment)
    }

    /// Hands `ReloadService` the files the gateway's secret and TLS setup are read from (the
    /// credentials file, the systemd credential, the CA file, the client certificate and key):
    /// it watches them, so a change is picked up at once, as a change to the config file is.
    func watchSecrets() {
        let s = configuration.settings
        var files = [s.gatewayCredentialsFile, s.gatewayCAFile, s.gatewayClientCert, s.gatewayClientKey].compactMap { $0 }
            .map(configuration.paths.expand)
        if let dir = configuration.environment["CREDENTIALS_DIRECTORY"] { files.append(dir + "/" + Credentials.credentialName) }
        secretFilesReporter.yield(Set(files.filter { $0.hasPrefix("/") }))
    }
}
