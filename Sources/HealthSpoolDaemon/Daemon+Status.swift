import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

extension Daemon {
    /// The daemon's current state in one word.
    /// `watching` is refined by what the daemon is doing: importing, in error, last sync
    /// succeeded, or idle.
    var stateWord: String {
        switch lifecycle.state {
        case .stopping, .locked, .syncing: return lifecycle.state.rawValue
        case .starting, .watching: break
        }
        if importing != nil { return "importing" }
        if stoppedReason != nil || configError != nil || lastError != nil || policy.incident != nil { return "error" }
        return lastOutcome == "success" ? "success" : "idle"
    }

    /// The one-line status for sd_notify STATUS= (shown by `systemctl --user status`).
    func statusLine() -> String {
        let queued = ((try? store.queuedCounts()) ?? [:]).values.reduce(0, +)
        let spool = context.spool.path.replacingHome(context.paths.home)
        if scheduler.locked {
            let waiting = ((try? context.spool.pendingFiles()) ?? []).count
            return "locked · \(waiting) file(s) waiting · \(Self.grouped(queued)) queued"
        }
        if let reason = configError ?? stoppedReason { return "sync stopped: \(reason)" }
        if context.settings.gatewayURL == nil {
            return "watching \(spool) · \(Self.grouped(queued)) queued · no gateway set (healthspool gateway set https://…)"
        }
        if let file = importing { return "importing \(file) · \(Self.grouped(queued)) queued" }
        if let waiting = importWaitingText() { return waiting + " · \(Self.grouped(queued)) queued" }
        if let retry = scheduler.retryAt.values.min(), lastError != nil || policy.incident != nil {
            let secs = max(0, (retry - Self.now().millis + 999) / 1000)
            let why = policy.incident?.kind == .unauthorized ? "gateway refused the credentials"
                : (lastAnswer?.hasPrefix("HTTP") == true ? "gateway answered \(lastAnswer!)" : "gateway unreachable")
            return "\(why), retrying in \(secs) s · \(Self.grouped(queued)) queued"
        }
        if !progress.isEmpty {
            return "syncing \(progress.keys.sorted().joined(separator: ", ")) · \(Self.grouped(queued)) queued"
        }
        return "watching \(spool) · \(Self.grouped(queued)) queued" + (lastSyncText.map { " · " + $0 } ?? "")
    }

    /// Publishes the status at most once a second (the queued counts cost a scan of the
    /// queue index); changes inside that second are coalesced into one trailing update.
    func publish(stopped: Bool = false) {
        if stopped { publishNow(stopped: true); return }
        let now = Self.now().millis
        if now - lastPublished >= 1000 {
            publishNow()
        } else if !publishPending {
            publishPending = true
            q.asyncAfter(deadline: .now() + .milliseconds(Int(1000 - (now - lastPublished)))) { [weak self] in
                guard let self, !self.shuttingDown else { return }
                self.publishPending = false
                self.publishNow()
            }
        }
    }

    /// Writes the status file and the sd_notify status line now.
    func publishNow(stopped: Bool = false) {
        lastPublished = Self.now().millis
        lifecycle.syncJobsChanged(pending: progress.count + worker.pendingJobs)
        let line = stopped ? "stopped" : statusLine()
        if !stopped { notifier.status(line) }
        var w = JSONWriter(capacity: 1024)
        w.raw("{\"pid\":"); w.number(Int64(getpidValue()))
        w.raw(",\"state\":"); w.string(stopped ? "stopped" : stateWord)
        w.raw(",\"statusLine\":"); w.string(line)
        w.raw(",\"locked\":"); if scheduler.locked { w.raw("true") } else { w.raw("false") }
        w.raw(",\"importing\":"); if let i = importing { w.string(i) } else { w.raw("null") }
        w.raw(",\"pendingFiles\":"); w.number(Int64(pendingImports.count))
        writeSpoolStatus(&w)
        w.raw(",\"syncing\":{")
        for (n, (k, v)) in progress.sorted(by: { $0.key < $1.key }).enumerated() {
            if n > 0 { w.raw(",") }
            w.key(k); w.number(Int64(v))
        }
        w.raw("},\"lastAnswer\":"); if let a = lastAnswer { w.string(a) } else { w.raw("null") }
        w.raw(",\"lastError\":"); if let e = lastError { w.string(e) } else { w.raw("null") }
        w.raw(",\"stoppedReason\":"); if let e = stoppedReason ?? configError { w.string(e) } else { w.raw("null") }
        w.raw(",\"nextSync\":"); if let n = scheduler.nextDeadline { w.string(Timestamp(millis: n).iso8601UTC) } else { w.raw("null") }
        w.raw(",\"retrying\":{")
        for (n, (k, v)) in scheduler.retryAt.sorted(by: { $0.key < $1.key }).enumerated() {
            if n > 0 { w.raw(",") }
            w.key(k); w.string(Timestamp(millis: v).iso8601UTC)
        }
        w.raw("},\"retryAt\":"); if let r = scheduler.retryAt.values.min() { w.string(Timestamp(millis: r).iso8601UTC) } else { w.raw("null") }
        w.raw(",\"retryAtMillis\":"); if let r = scheduler.retryAt.values.min() { w.number(r) } else { w.raw("null") }
        w.raw(",\"incident\":")
        if let i = policy.incident {
            w.raw("{\"kind\":"); w.string(i.kind.rawValue)
            w.raw(",\"since\":"); w.string(Timestamp(millis: i.since).iso8601UTC)
            w.raw(",\"attempts\":"); w.number(Int64(i.attempts))
            w.raw(",\"message\":"); w.string(i.message); w.raw("}")
        } else { w.raw("null") }
        w.raw(",\"lastOutcome\":"); if let o = lastOutcome { w.string(o) } else { w.raw("null") }
        w.raw(",\"configFileError\":"); if let e = reloadError { w.string(e) } else { w.raw("null") }
        w.raw(",\"updatedAt\":"); w.string(Self.now().iso8601UTC)
        w.raw("}")
        try? FileSystem.writeAtomically(context.statusFile, w.bytes, mode: 0o600)
    }

    static func grouped(_ n: Int) -> String {
        let s = String(n)
        guard s.count > 3 else { return s }
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0, i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }
}

#if canImport(Glibc)
import Glibc
func getpidValue() -> Int32 { getpid() }
#endif

extension String {
    /// The path with the home directory shown as `~`.
    func replacingHome(_ home: String) -> String {
        guard home.count > 1, hasPrefix(home) else { return self }
        return "~" + dropFirst(home.count)
    }
}
