import Dispatch
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolStore
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The outcome of one per-type job.
public struct SyncJobResult: Sendable {
    public var type: String
    public var trigger: SyncTrigger
    public var started: Timestamp
    public var durationMillis: Int64
    public var sent = 0
    public var parked = 0
    /// Samples left queued because of a retryable failure or a stop.
    public var leftQueued = 0
    public var error: GatewayError?
    public var stopped = false
    public var retryAfterMillis: Int64?
    public var httpStatus: Int?
    public var requests = 0
    public var newConnections = 0

    /// success, partial or failed.
    public var outcome: String {
        if error == nil && parked == 0 { return "success" }
        return sent > 0 ? "partial" : (error == nil ? "partial" : "failed")
    }
}

/// What the senders need to know, swapped atomically on reload.
struct SyncConfig: Sendable {
    var endpoint: GatewayEndpoint
    var envelope: BatchEnvelope
    var batchSize: Int
}

/// A bounded sync worker: `senders` fixed senders and a queue of per-type jobs. A job for a
/// type already queued or in flight coalesces (in flight: it runs once more afterwards), so the
/// queue never holds more than one job per type. Each job reads its type's queued samples in
/// batches, oldest first, past a cursor (so nothing is sent twice in one run), and marks them
/// synced only after the gateway accepted them.
public final class SyncWorker {
    private let state = DispatchQueue(label: "healthspool.sync.state")
    private let senders: [DispatchQueue]
    private var idle: [Int]
    private var queue: [(String, SyncTrigger)] = []
    private var queued: Set<String> = []
    private var inFlight: Set<String> = []
    private var again: [String: SyncTrigger] = [:]
    private var config: SyncConfig?
    private var stopping = false
    private let storePath: String
    private let logger: Logger
    private let clock: @Sendable () -> Timestamp
    private let onResult: @Sendable (SyncJobResult) -> Void
    private let onProgress: @Sendable (String, Int) -> Void
    private let group = DispatchGroup()
    /// Per-sender resources, touched only on that sender's queue.
    private final class SenderState: @unchecked Sendable {
        var store: SampleStore?
        var client: GatewayClient?
        var endpoint: GatewayEndpoint?
    }
    private let senderStates: [SenderState]

    /// Creates the worker. `onResult` and `onProgress` are called from sender queues.
    public init(senders: Int, storePath: String, logger: Logger, clock: @escaping @Sendable () -> Timestamp,
                onProgress: @escaping @Sendable (String, Int) -> Void = { _, _ in },
                onResult: @escaping @Sendable (SyncJobResult) -> Void) {
        let n = max(1, senders)
        self.senders = (0..<n).map { DispatchQueue(label: "healthspool.sync.sender.\($0)") }
        self.senderStates = (0..<n).map { _ in SenderState() }
        self.idle = Array(0..<n)
        self.storePath = storePath
        self.logger = logger
        self.clock = clock
        self.onResult = onResult
        self.onProgress = onProgress
    }

    /// Replaces the gateway settings (nil: no gateway configured; jobs are not run).
    func configure(_ config: SyncConfig?) { state.sync { self.config = config } }

    /// Number of queued plus in-flight jobs.
    public var pendingJobs: Int { state.sync { queue.count + inFlight.count } }

    /// Types with a job in flight.
    public var typesInFlight: [String] { state.sync { inFlight.sorted() } }

    /// Queues a job per type; coalesces with queued or in-flight jobs of the same type.
    public func enqueue(_ types: [String], trigger: SyncTrigger) {
        state.async {
            guard !self.stopping else { return }
            for t in types {
                if self.inFlight.contains(t) { self.again[t] = self.again[t] ?? trigger; continue }
                if self.queued.contains(t) { continue }
                self.queued.insert(t)
                self.queue.append((t, trigger))
            }
            self.dispatchJobs()
        }
    }

    /// Must run on `state`.
    private func dispatchJobs() {
        guard let config, !stopping else { return }
        while !idle.isEmpty, !queue.isEmpty {
            let (type, trigger) = queue.removeFirst()
            queued.remove(type)
            inFlight.insert(type)
            let sender = idle.removeFirst()
            group.enter()
            senders[sender].async {
                let result = self.run(type: type, trigger: trigger, config: config, sender: sender)
                self.onResult(result)
                self.state.async {
                    self.inFlight.remove(type)
                    self.idle.append(sender)
                    if let t = self.again.removeValue(forKey: type), !self.stopping, !result.stopped, result.error == nil {
                        self.queued.insert(type)
                        self.queue.append((type, t))
                    }
                    self.dispatchJobs()
                    self.group.leave()
                }
            }
        }
    }

    /// Stops taking jobs, lets in-flight jobs finish their current batch, and waits for them.
    public func shutdown(timeoutSeconds: Int) {
        state.sync {
            stopping = true
            queue.removeAll()
            queued.removeAll()
        }
        _ = group.wait(timeout: .now() + .seconds(timeoutSeconds))
    }

    var isStopping: Bool { state.sync { stopping } }

    /// Runs one job on a sender queue.
    private func run(type: String, trigger: SyncTrigger, config: SyncConfig, sender: Int) -> SyncJobResult {
        let started = clock()
        var result = SyncJobResult(type: type, trigger: trigger, started: started, durationMillis: 0)
        defer { result.durationMillis = clock().millis - started.millis }
        let st = senderStates[sender]
        do {
            if st.store == nil { st.store = try SampleStore(path: storePath) }
            if st.client == nil || st.endpoint != config.endpoint {
                st.client = try GatewayClient(endpoint: config.endpoint)
                st.endpoint = config.endpoint
            }
        } catch let e as GatewayError {
            result.error = e
            result.stopped = !e.isRetryable
            result.durationMillis = clock().millis - started.millis
            return result
        } catch {
            result.error = .badResponse("local store: \(error)")
            result.durationMillis = clock().millis - started.millis
            return result
        }
        let store = st.store!, client = st.client!
        var cursor: Int64 = 0
        while !isStopping || result.requests == 0 {
            let batch: [StoredSample]
            do { batch = try store.queued(type: type, limit: config.batchSize, afterRowID: cursor) } catch {
                result.error = .badResponse("local store: \(error)")
                break
            }
            if batch.isEmpty { break }
            cursor = batch.last!.rowID
            let outcome = client.deliver(batch, envelope: config.envelope, now: clock())
            result.requests += outcome.requests
            result.newConnections += outcome.newConnections
            result.httpStatus = outcome.lastStatus ?? result.httpStatus
            do {
                if !outcome.accepted.isEmpty { try store.markSynced(outcome.accepted, at: clock()) }
                if !outcome.rejected.isEmpty { try store.park(outcome.rejected, at: clock()) }
            } catch {
                // The gateway has them; marking failed. They stay queued and are re-sent
                // (at-least-once; receivers deduplicate on the sample id).
                logger.error("could not mark samples synced: \(error)", metadata: ["event": "error", "type": "\(type)"])
            }
            result.sent += outcome.accepted.count
            result.parked += outcome.rejected.count
            for (s, reason) in outcome.rejected {
                logger.warning("gateway rejected sample \(s.sample.id) of \(type); parked as a dead letter: \(reason)",
                               metadata: ["event": "sync", "type": "\(type)", "sample": "\(s.sample.id)"])
            }
            onProgress(type, result.sent)
            if !outcome.retry.isEmpty {
                result.leftQueued = outcome.retry.count
                result.error = outcome.error ?? .badResponse("records not accepted")
                result.stopped = outcome.stopped
                result.retryAfterMillis = outcome.retryAfterMillis
                break
            }
        }
        return result
    }
}
