import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux

/// A locked keyring at start: healthspool's secrets are in it and cannot be read yet, so the
/// daemon holds the lock (`LockHolds.Holder.keyring`) as when the session is locked — nothing
/// read from the spool, nothing sent, arrivals wait — says so once, and looks again every
/// `keyringPollSeconds` until the keyring is unlocked (at login, or in the keyring manager),
/// then reloads (reading the secrets) and lets go.
extension Daemon {
    static let keyringPollSeconds = 2

    /// Whether healthspool's items in the session's keyring are locked now; nil when there is no
    /// keyring (or `secrets.keyring = off`). Blocking (sd-bus calls, bounded).
    static func keyringLocked(_ configuration: Configuration) -> Bool? {
        (try? SecretService.with(use: configuration.settings.secretsKeyring, environment: configuration.environment) { service throws(KeyringError) in
            try service.anyLocked()
        }) ?? nil
    }

    /// Runs in `start()`, off the cooperative pool, before the lock is first worked out.
    func startKeyringWatch() {
        guard Self.keyringLocked(configuration) == true else { return }
        logger.notice("the keyring is locked and holds healthspool's secrets: waiting for it to be unlocked; nothing is read from the spool or sent until then",
                      metadata: ["event": "lock", "lock.by": "keyring"])
        q.sync { status.assumeIsolated { [clock] in _ = $0.lockHolds.set(.keyring, true, now: clock.now()) } }   // start-up's own thread: cannot await
        pollKeyring()
    }

    /// Not a global queue (issue 39: see `TaskThreadPool`).
    private static let keyringPollQueue = DispatchQueue(label: "healthspool.keyring")

    private func pollKeyring() {
        Self.keyringPollQueue.asyncAfter(deadline: .now() + .seconds(Self.keyringPollSeconds)) { [weak self] in
            guard let self else { return }
            let configuration = self.q.sync { self.configuration }
            let stopping = self.q.sync { self.status.assumeIsolated { $0.stopping } }   // a Dispatch block that blocks on sd-bus: not async
            guard !stopping else { return }
            if Self.keyringLocked(configuration) == true {
                self.pollKeyring()
                return
            }
            Task { await self.keyringUnlocked(on: self.status) }
        }
    }

    /// The keyring was unlocked: the secrets read (a reload) and its hold let go, in one step.
    private func keyringUnlocked(on status: isolated StatusBoard) {
        guard !status.stopping else { return }
        reload(reason: "the keyring was unlocked", on: status)
        setHold(.keyring, false, on: status)
    }
}
