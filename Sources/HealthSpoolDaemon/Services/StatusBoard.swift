import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging

/// What the daemon shows, owned by `StatusService`: the daemon's state machine (starting,
/// watching, locked, syncing, stopping), the sd_notify status line and the status file
/// (`status.json`), published at most once a second, and the watchdog thread.
///
/// An actor on the coordination queue (`QueueExecutor`), where the sync coordinator and the
/// intake it reads live too; the daemon's steps (a lock change, a reload, the end of start-up)
/// run on it through an `isolated` parameter, awaited by the services.
actor StatusBoard {
    private nonisolated let executor: QueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let clock: any ServiceClock
    let logger: Logger
    let notifier: SystemdNotifier
    let sync: SyncCoordinator
    let intake: SpoolIntake
    var configuration: Configuration
    /// Starting, watching, locked, syncing or stopping (the policy lives in the core).
    var lifecycle = DaemonStateMachine()
    /// What holds the lock (the flag, the session, a suspend) and since when.
    var lockHolds = LockHolds()
    /// The logind session whose lock is followed (id, type), if any.
    var sessionFollowed: (id: String, type: String)?
    /// Why no session lock is followed (no bus, no logind, no session), when so.
    var sessionNote: String?
    /// `lock.follow_session` as the daemon started with it (a reload does not change it).
    var followSession = SessionFollow.off
    /// Why the configuration file was not reloaded (the daemon runs on the previous one).
    var reloadError: String?
    /// Changes to settings that only a restart applies (spool.dir, state.dir), as sentences.
    var restartNeeded: [String] = []
    private var lastPublished: Int64 = 0
    /// The trailing update of the current second, when one is due (kept: a timer nobody holds
    /// is released before it fires).
    private var trailing: (any ServiceTimer)?
    private var heartbeat: DispatchSourceTimer?
    private var watchdog: SystemdWatchdog?
    /// The Prometheus counters: the watchdog's keep-alives.
    let metrics: DaemonMetrics
    /// The status file's content for the web in this process (the app's store pool's).
    let live: LiveStatus?

    init(configuration: Configuration, logger: Logger, notifier: SystemdNotifier, executor: QueueExecutor, clock: any ServiceClock,
         sync: SyncCoordinator, intake: SpoolIntake, metrics: DaemonMetrics, live: LiveStatus? = nil) {
        self.executor = executor
        self.live = live
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.notifier = notifier
        self.clock = clock
        self.sync = sync
        self.intake = intake
    }

    var stopping: Bool { lifecycle.state == .stopping }

    /// The daemon's current state in one word.
    /// `watching` is refined by what the daemon is doing: importing, in error, last sync
    /// succeeded, or idle.
    var stateWord: String {
        switch lifecycle.state {
        case .stopping, .locked, .syncing: return lifecycle.state.rawValue
        case .starting, .watching: break
        }
        let s = sync.assumeIsolated { $0.shown }   // same executor: the status read in one step
        if intake.assumeIsolated({ $0.importing }) != nil { return "importing" }   // same executor, one step
        if s.stoppedReason != nil || s.configError != nil || s.lastError != nil || s.incident != nil { return "error" }
        return s.lastOutcome == "success" ? "success" : "idle"
    }

    /// The one-line status for sd_notify STATUS= (shown by `systemctl --user status`).
    func statusLine() -> String {
        let s = sync.assumeIsolated { $0.shown }   // same executor: the status read in one step
        let queued = sync.assumeIsolated { $0.queuedCountText() }   // same executor, one step
        let spool = configuration.spool.path.replacingHome(configuration.paths.home)
        if s.locked {
            let waiting = ((try? configuration.spool.pendingFiles()) ?? []).count
            let by = lockHolds.holders.map(\.holder.rawValue).joined(separator: "+")
            return "locked\(by.isEmpty ? "" : " (\(by))") · \(waiting) file(s) waiting · \(queued) queued"
        }
        if let reason = s.configError ?? s.stoppedReason { return "sync stopped: \(reason)" }
        if configuration.settings.gatewayURL == nil {
            return "watching \(spool) · \(queued) queued · no gateway set (healthspool gateway set https://…)"
        }
        let (importing, waiting) = intake.assumeIsolated { [now = clock.now().millis] in ($0.importing, $0.importWaitingText(now: now)) }   // same executor, one step
        if let file = importing { return "importing \(file) · \(queued) queued" }
        if let waiting { return waiting + " · \(queued) queued" }
        if let retry = s.retryAt.values.min(), s.lastError != nil || s.incident != nil {
            let secs = max(0, (retry - clock.now().millis + 999) / 1000)
            let why = s.incident?.kind == .unauthorized ? "gateway refused the credentials"
                : (s.lastAnswer?.hasPrefix("HTTP") == true ? "gateway answered \(s.lastAnswer ?? "")" : "gateway unreachable")
            return "\(why), retrying in \(secs) s · \(queued) queued"
        }
        if !s.progress.isEmpty {
            return "syncing \(s.progress.keys.sorted().joined(separator: ", ")) · \(queued) queued"
        }
        return "watching \(spool) · \(queued) queued" + (s.lastSyncText.map { " · " + $0 } ?? "")
    }

    /// Publishes the status at most once a second (the queued counts cost a scan of the
    /// queue index); changes inside that second are coalesced into one trailing update.
    func publish(stopped: Bool = false) {
        if stopped { publishNow(stopped: true); return }
        let now = clock.now().millis
        if now - lastPublished >= 1000 {
            publishNow()
        } else if trailing == nil {
            trailing = clock.schedule(at: lastPublished + 1000, on: executor.queue) { [weak self] in
                self?.assumeIsolated { board in   // the timer's Dispatch handler, on `q`: not async
                    guard !board.stopping else { return }
                    board.trailing = nil
                    board.publishNow()
                }
            }
        }
    }

    /// Writes the status file and the sd_notify status line now.
    func publishNow(stopped: Bool = false) {
        lastPublished = clock.now().millis
        let s = sync.assumeIsolated { $0.shown }   // same executor: the status read in one step
        lifecycle.syncJobsChanged(pending: s.pendingJobs)
        let line = stopped ? "stopped" : statusLine()
        if !stopped { notifier.status(line) }
        var w = JSONWriter(capacity: 1024)
        w.raw("{\"pid\":"); w.number(Int64(getpidValue()))
        w.raw(",\"state\":"); w.string(stopped ? "stopped" : stateWord)
        w.raw(",\"statusLine\":"); w.string(line)
        w.raw(",\"locked\":"); if s.locked { w.raw("true") } else { w.raw("false") }
        writeLockStatus(&w)
        let (importing, pending) = intake.assumeIsolated { ($0.importing, $0.pendingImports.count) }   // same executor, one step
        w.raw(",\"importing\":"); if let i = importing { w.string(i) } else { w.raw("null") }
        w.raw(",\"pendingFiles\":"); w.number(Int64(pending))
        writeSpoolStatus(&w)
        w.raw(",\"syncing\":{")
        for (n, (k, v)) in s.progress.sorted(by: { $0.key < $1.key }).enumerated() {
            if n > 0 { w.raw(",") }
            w.key(k); w.number(Int64(v))
        }
        w.raw("},\"lastAnswer\":"); if let a = s.lastAnswer { w.string(a) } else { w.raw("null") }
        w.raw(",\"lastError\":"); if let e = s.lastError { w.string(e) } else { w.raw("null") }
        w.raw(",\"stoppedReason\":"); if let e = s.stoppedReason ?? s.configError { w.string(e) } else { w.raw("null") }
        w.raw(",\"nextSync\":"); if let n = s.nextDeadline { w.string(Timestamp(millis: n).iso8601UTC) } else { w.raw("null") }
        w.raw(",\"retrying\":{")
        for (n, (k, v)) in s.retryAt.sorted(by: { $0.key < $1.key }).enumerated() {
            if n > 0 { w.raw(",") }
            w.key(k); w.string(Timestamp(millis: v).iso8601UTC)
        }
        w.raw("},\"retryAt\":"); if let r = s.retryAt.values.min() { w.string(Timestamp(millis: r).iso8601UTC) } else { w.raw("null") }
        w.raw(",\"retryAtMillis\":"); if let r = s.retryAt.values.min() { w.number(r) } else { w.raw("null") }
        w.raw(",\"incident\":")
        if let i = s.incident {
            w.raw("{\"kind\":"); w.string(i.kind.rawValue)
            w.raw(",\"since\":"); w.string(Timestamp(millis: i.since).iso8601UTC)
            w.raw(",\"attempts\":"); w.number(Int64(i.attempts))
            w.raw(",\"message\":"); w.string(i.message); w.raw("}")
        } else { w.raw("null") }
        w.raw(",\"lastOutcome\":"); if let o = s.lastOutcome { w.string(o) } else { w.raw("null") }
        w.raw(",\"configFileError\":"); if let e = reloadError { w.string(e) } else { w.raw("null") }
        w.raw(",\"updatedAt\":"); w.string(clock.now().iso8601UTC)
        w.raw("}")
        try? FileSystem.writeAtomically(configuration.statusFile, w.bytes, mode: 0o600)
        live?.set(w.bytes)
    }

    /// `"lock"`: who holds the lock and since when, and which session's lock is followed.
    func writeLockStatus(_ w: inout JSONWriter) {
        w.raw(",\"lock\":{\"holds\":[")
        for (n, hold) in lockHolds.holders.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{\"by\":"); w.string(hold.holder.rawValue)
            w.raw(",\"since\":"); w.string(hold.since.iso8601UTC); w.raw("}")
        }
        w.raw("],\"followSession\":"); w.string(followSession.rawValue)
        w.raw(",\"session\":")
        if let s = sessionFollowed {
            w.raw("{\"id\":"); w.string(s.id); w.raw(",\"type\":"); w.string(s.type); w.raw("}")
        } else { w.raw("null") }
        w.raw(",\"sessionNote\":"); if let n = sessionNote { w.string(n) } else { w.raw("null") }
        w.raw("}")
    }

    /// Starts the keep-alive thread (when systemd asked for a watchdog) and the heartbeat this
    /// queue posts to it. Work on `queue` delays the heartbeat, never the pings; a coordinator
    /// silent for a whole `WatchdogSec` stops them and systemd restarts the daemon.
    func startWatchdog() {
        guard let watchdog = SystemdWatchdog(notifier: notifier, logger: logger, work: [intake.progress, sync.worker.progress]) else { return }
        let every = DispatchTimeInterval.microseconds(Int(watchdog.policy.pingIntervalMicros))
        let t = DispatchSource.makeTimerSource(queue: executor.queue)
        t.schedule(deadline: .now() + every, repeating: every, leeway: .milliseconds(10))
        t.setEventHandler { watchdog.beat() }
        t.resume()
        heartbeat = t
        watchdog.start()
        self.watchdog = watchdog
        metrics.watch(watchdog)
    }

    /// The end of a stop: the final status and the watchdog thread stopped.
    func publishStopped() {
        publish(stopped: true)
        heartbeat?.cancel()
        watchdog?.stop()
    }

    nonisolated static func grouped(_ n: Int) -> String {
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
