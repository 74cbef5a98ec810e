import Dispatch
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import HealthSpoolStore
import Logging

extension Daemon {
    /// The retry policy the settings describe.
    static func policy(for settings: Settings) -> DeliveryPolicy {
        DeliveryPolicy(schedule: RetrySchedule(baseMillis: Int64(settings.retryBaseSeconds) * 1000,
                                               capMillis: Int64(settings.retryMaxSeconds) * 1000),
                       authDelaysMillis: settings.retryAuthSeconds.map { Int64($0) * 1000 })
    }

    /// Carries out the retry policy's decision for a finished job: retries, the one log line an
    /// outage gets when it starts and when it ends, and what status shows.
    func recordDelivery(_ r: SyncJobResult) {
        let now = Self.now().millis
        let decision = policy.finished(r.report, now: now, unitRandom: Double.random(in: 0..<1, using: &rng))
        var meta: Logger.Metadata = ["event": "sync", "type": "\(r.type)", "count": "\(r.sent)", "outcome": "\(r.outcome.rawValue)",
                                     "trigger": "\(r.trigger.rawValue)"]
        if let s = r.httpStatus { meta["http.status"] = "\(s)"; lastAnswer = "HTTP \(s)" }
        if let at = decision.retryAt {
            scheduler.scheduleRetry(r.type, at: at)
            meta["retry.in_ms"] = "\(max(0, at - now))"
        } else {
            scheduler.succeeded(r.type)
        }
        if r.error == nil {
            lastError = nil
            if r.requests > 0 { lastOutcome = "success" }
            if r.sent > 0 || r.parked > 0 {
                lastSyncText = "last sync \(Self.clockTime(Self.now())) ok"
                logger.info("synced \(r.sent) \(r.type) sample(s)\(r.parked > 0 ? ", parked \(r.parked)" : "")", metadata: meta)
            }
        } else {
            lastError = r.error?.description
            lastOutcome = "error"
            if r.httpStatus == nil { lastAnswer = "unreachable" }
        }
        switch decision.event {
        case let .incidentStarted(incident):
            let wait = Self.seconds(max(0, incident.retryAt - now))
            if incident.kind == .unauthorized {
                logger.error("gateway refused the credentials; samples stay queued, retrying in \(wait) and at once when the credentials file changes: \(incident.message)",
                             metadata: meta)
            } else {
                logger.warning("gateway down; samples stay queued, retrying in \(wait): \(incident.message)", metadata: meta)
            }
            // The jobs waiting for a sender would fail the same way: they wait for the retry.
            for t in worker.dropQueued() { scheduler.scheduleRetry(t, at: incident.retryAt) }
        case let .incidentEnded(incident, after):
            logger.notice("gateway answers again after \(Self.seconds(after)) (\(incident.attempts) attempt(s)); sending what queued",
                          metadata: meta)
            if canSync, !scheduler.locked {
                let waiting = Set(scheduler.retryAt.keys).union((try? store.typesWithQueuedSamples()) ?? [])
                perform(scheduler.syncNow(Array(waiting), trigger: .network))
            }
        case let .stopped(reason):
            stoppedReason = reason
            logger.error("sync stopped until the configuration changes: \(reason)", metadata: meta)
        case .none:
            if let e = r.error {
                let wait = decision.retryAt.map { ", retrying in \(Self.seconds(max(0, $0 - now)))" } ?? ""
                logger.debug("sync of \(r.type) failed after \(r.sent) sample(s)\(wait): \(e)", metadata: meta)
            }
        }
    }

    /// Writes the attempt's history row once no job of it is pending.
    func flushAttempt() {
        guard worker.pendingJobs == 0, let row = attempt.row else { return }
        attempt = AttemptRecord()
        metrics.attemptFinished(row.outcome)
        try? store.recordSync(row)
    }

    /// Watches the files the gateway's secret and TLS setup are read from (the credentials file,
    /// the systemd credential, the CA file, the client certificate and key): a change is picked
    /// up at once, as a change to the config file is.
    func watchSecrets() {
        let s = context.settings
        var files = [s.gatewayCredentialsFile, s.gatewayCAFile, s.gatewayClientCert, s.gatewayClientKey].compactMap { $0 }
            .map(context.paths.expand)
        if let dir = context.environment["CREDENTIALS_DIRECTORY"] { files.append(dir + "/" + Credentials.credentialName) }
        let wanted = Set(files.filter { $0.hasPrefix("/") })
        guard wanted != watchedSecrets || secretWatcher == nil else { return }
        secretWatcher?.stop()
        secretWatcher = nil
        watchedSecrets = wanted
        // The main watcher already sees the config directory (and the spool and state ones).
        let mainWatched: Set<String> = [context.spool.path, context.stateDir, context.paths.configDir]
        let directories = Set(wanted.map(FileSystem.parent)).subtracting(mainWatched).filter { !$0.isEmpty && FileSystem.exists($0) }
        guard !directories.isEmpty else { return }
        do {
            secretWatcher = try SpoolWatcher(directories: directories.sorted(), queue: q) { [weak self] e in self?.handle(e) }
        } catch {
            logger.warning("cannot watch the gateway's credentials and certificate files; SIGHUP reloads them: \(error)",
                           metadata: ["event": "error"])
        }
    }
}
