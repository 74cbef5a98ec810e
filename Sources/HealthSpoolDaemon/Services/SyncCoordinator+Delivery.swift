import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolStore
import Logging

extension SyncCoordinator {
    /// Carries out the retry policy's decision for a finished job: retries, the one log line an
    /// outage gets when it starts and when it ends, and what status shows.
    func recordDelivery(_ r: SyncJobResult) {
        let now = clock.now().millis
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
                lastSyncText = "last sync \(Daemon.clockTime(clock.now())) ok"
                logger.info("synced \(r.sent) \(r.type) sample(s)\(r.parked > 0 ? ", parked \(r.parked)" : "")", metadata: meta)
            }
        } else {
            lastError = r.error?.description
            lastOutcome = "error"
            if r.httpStatus == nil { lastAnswer = "unreachable" }
        }
        switch decision.event {
        case let .incidentStarted(incident):
            let wait = Daemon.seconds(max(0, incident.retryAt - now))
            if incident.kind == .unauthorized {
                logger.error("gateway refused the credentials; samples stay queued, retrying in \(wait) and at once when the credentials file changes: \(incident.message)",
                             metadata: meta)
            } else if incident.kind == .throttled {
                logger.warning("gateway asks to slow down; every type waits, retrying in \(wait): \(incident.message)", metadata: meta)
            } else {
                logger.warning("gateway down; samples stay queued, retrying in \(wait): \(incident.message)", metadata: meta)
            }
            // The jobs waiting for a sender would fail the same way: they wait for the retry.
            for t in worker.dropQueued() { scheduler.scheduleRetry(t, at: incident.retryAt) }
        case let .incidentEnded(incident, after):
            logger.notice("gateway answers again after \(Daemon.seconds(after)) (\(incident.attempts) attempt(s)); sending what queued",
                          metadata: meta)
            if canSync, !locked {
                let waiting = Set(scheduler.retryAt.keys).union(queuedTypes())
                perform(scheduler.syncNow(Array(waiting), trigger: .network))
            }
        case let .stopped(reason):
            stoppedReason = reason
            logger.error("sync stopped until the configuration changes: \(reason)", metadata: meta)
        case .none:
            if let e = r.error {
                let wait = decision.retryAt.map { ", retrying in \(Daemon.seconds(max(0, $0 - now)))" } ?? ""
                logger.debug("sync of \(r.type) failed after \(r.sent) sample(s)\(wait): \(e)", metadata: meta)
            }
        }
    }

    /// Writes the attempt's history row once no job of it is pending.
    func flushAttempt() {
        guard allReported, let row = attempt.row else { return }
        attempt = AttemptRecord()
        metrics.attemptFinished(row.outcome)
        try? store?.recordSync(row)
    }
}
