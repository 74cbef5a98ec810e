import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolLock
import HealthSpoolStore
import Logging

/// Syncs without a daemon (`healthspool sync` when none runs). Holds the daemon's lock while it
/// works, so a daemon and a manual syncer never send concurrently.
public enum InProcessSync {
    public enum Failure: Error, CustomStringConvertible {
        case daemonBusy
        case noGateway
        case locked
        public var description: String {
            switch self {
            case .daemonBusy: "a healthspool daemon holds the lock but does not answer on its control socket; try again shortly"
            case .noGateway: "no gateway is set; run: healthspool gateway set https://HOST:PORT/PATH [--ca-file CA.pem]"
            case .locked: "locked: nothing is sent until 'healthspool unlock'"
            }
        }
    }

    /// Syncs `types` (all with queued samples when empty) and returns one result per type.
    public static func run(configuration: Configuration, types requested: [String], logger: Logger,
                           progress: @escaping @Sendable (String, Int) -> Void) throws -> [SyncJobResult] {
        if LockFlag.isSet(path: configuration.lockFlagPath) { throw Failure.locked }
        try FileSystem.makeDirectory(configuration.runtimeDir, mode: 0o700)
        guard let lock = ProcessLock(path: configuration.pidFile, writePID: true) else { throw Failure.daemonBusy }
        defer { withExtendedLifetime(lock) {} }
        guard let endpoint = try configuration.endpoint() else { throw Failure.noGateway }
        let store = try SampleStore.connect(to: configuration)
        var types = requested.map(DataType.canonicalName)
        if types.isEmpty { types = try store.typesWithQueuedSamples() }
        types = types.filter { configuration.settings.isSent($0) }
        let results = Results()
        let done = DispatchGroup()
        for _ in types { done.enter() }
        let box = WorkerBox()
        let worker = SyncWorker(senders: configuration.settings.senders, storePath: configuration.storePath, logger: logger,
                                clock: RealTimeClock.now, onProgress: progress) { r in
            results.append(r)
            done.leave()
            // The gateway is down or refuses us: the types still waiting would fail the same way.
            // (Results are reported on the worker's state queue: the queue is emptied from another.)
            if r.error != nil, r.sent == 0, let worker = box.worker {
                DispatchQueue.global().async {
                    for t in worker.dropQueued() {
                        var skipped = SyncJobResult(type: t, trigger: .manual, started: r.started, durationMillis: 0)
                        skipped.error = r.error
                        skipped.httpStatus = r.httpStatus
                        results.append(skipped)
                        done.leave()
                    }
                }
            }
        }
        box.worker = worker
        worker.configure(SyncConfig(endpoint: endpoint, envelope: configuration.envelope, sizing: configuration.settings.batchSizing))
        worker.enqueue(types, trigger: .manual)
        done.wait()
        // One attempt, one history row.
        var attempt = AttemptRecord()
        for r in results.items { attempt.add(r) }
        if let row = attempt.row { try store.recordSync(row) }
        return results.items.sorted { $0.type < $1.type }
    }

    /// The worker, known to its own result callback once created.
    final class WorkerBox: Sendable {
        private let slot = Lock<SyncWorker?>(nil)
        var worker: SyncWorker? {
            get { slot.withLock { $0 } }
            set { slot.withLock { $0 = newValue } }
        }
    }

    /// Results as they come in, from the worker's state queue.
    final class Results: Sendable {
        private let storage = Lock<[SyncJobResult]>([])
        func append(_ r: SyncJobResult) { storage.withLock { $0.append(r) } }
        var items: [SyncJobResult] { storage.withLock { $0 } }
    }
}
