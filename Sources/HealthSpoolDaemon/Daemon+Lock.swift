import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import Logging

/// The lock: the flag, the logind session's lock and a suspend, combined by `LockHolds` (in the
/// status board); the daemon carries out what a change of the effective lock asks.
extension Daemon {
    /// Waits, at most 3 s, for the session lock's first state (`SessionLockService`, unless
    /// `lock.follow_session = off`), so that a locked session is known before the spool is
    /// read. Runs in `start()`, off the cooperative pool.
    func waitForSessionLock() {
        let mode = configuration.settings.lockFollowSession
        q.sync { status.assumeIsolated { $0.followSession = mode } }   // start-up's own thread, which blocks: it cannot await
        guard mode != .off else { return }
        if sessionLockKnown.wait(timeout: .now() + .seconds(3)) == .timedOut {
            logger.warning("logind did not answer within 3 s; reading the spool meanwhile (lock flag alone until it does)",
                           metadata: ["event": "lock"])
        }
    }

    /// What the session lock watcher reported (on the board's executor, `q`).
    func sessionEvent(_ event: SessionLockEvent, on status: isolated StatusBoard) {
        guard !status.stopping else { return }   // reported before the watcher stopped: the stop has begun
        switch event {
        case let .following(session, type):
            status.sessionFollowed = (session, type)
            status.sessionNote = nil
            flagAloneLogged = false
            logger.notice("following the lock of logind session \(session) (\(type.isEmpty ? "type unknown" : type))",
                          metadata: ["event": "lock", "session.id": "\(session)"])
        case let .notFollowing(reason):
            let wasFollowing = status.sessionFollowed != nil
            status.sessionFollowed = nil
            status.sessionNote = reason
            if wasFollowing || !flagAloneLogged {
                flagAloneLogged = true
                logger.notice("the session lock is not followed: \(reason); the lock flag alone\(wasFollowing ? " (trying again)" : "")",
                              metadata: ["event": "lock"])
            }
            setHold(.session, false, on: status)
            setHold(.sleep, false, on: status)
        case let .sessionLocked(locked):
            setHold(.session, locked, on: status)
        case let .sleeping(sleeping):
            setHold(.sleep, sleeping, on: status)
        case .settled:
            return
        }
        if started { status.publish() }
    }

    /// `holder` took hold of the lock or let it go. While anything holds it nothing is read
    /// from the spool and nothing is sent; when the last hold goes the spool is read and what
    /// waited drains. The intake and the coordinator share the board's executor: they are
    /// entered synchronously, so that a change of the lock is one step that no other job on
    /// the queue (a spool file, a timer) can come between.
    func setHold(_ holder: LockHolds.Holder, _ holds: Bool, on status: isolated StatusBoard) {
        let before = status.lockHolds.since[holder] != nil
        let change = status.lockHolds.set(holder, holds, now: clock.now())
        guard started, before != holds else { return }
        if let hint = status.lockHolds.unlockHint { sync.assumeIsolated { $0.unlockHint = hint } }   // same executor, one step (above)
        let metadata: Logger.Metadata = ["event": "lock", "lock.by": "\(holder.rawValue)", "locked": "\(status.lockHolds.isLocked)"]
        switch change {
        case .locked?:
            intake.assumeIsolated { $0.locked = true }   // same executor, one step (above)
            sync.assumeIsolated { $0.setLocked(true) }   // same executor, one step (above)
            logger.notice("locked by \(holder.phrase): the spool is not read and nothing is sent until unlock", metadata: metadata)
            _ = status.lifecycle.lockChanged(true)
        case .unlocked?:
            intake.assumeIsolated { $0.locked = false }   // same executor, one step (above)
            sync.assumeIsolated { $0.setLocked(false) }   // same executor, one step (above)
            logger.notice("unlocked (\(holder.phrase) went): draining what waited", metadata: metadata)
            for action in status.lifecycle.lockChanged(false) where action == .readSpool {
                intake.assumeIsolated { $0.rescan() }   // same executor, one step (above)
            }
        case nil:
            logger.info("\(holder.phrase) \(holds ? "holds" : "went"); still locked by \(status.lockHolds.holdersText ?? "nothing")",
                        metadata: metadata)
        }
        status.publish()
    }

    /// Sets the lock flag's hold to match the flag on disk, when they differ (before a spool
    /// file is admitted, and when the flag's watcher lost events).
    func followFlag(on status: isolated StatusBoard) {
        let set = LockFlag.isSet(path: configuration.lockFlagPath)
        if set != (status.lockHolds.since[.flag] != nil) { setHold(.flag, set, on: status) }
    }
}
