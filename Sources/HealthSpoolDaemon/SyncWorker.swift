import Dispatch
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import HealthSpoolLock
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
    /// Why samples were parked (the first reason), for history.
    public var parkedReason: String?
    /// Samples left queued because of a retryable failure or a stop.
    public var leftQueued = 0
    public var error: GatewayError?
    public var stopped = false
    public var retryAfterMillis: Int64?
    public var httpStatus: Int?
    public var requests = 0
    public var newConnections = 0

    /// What history shows as the error: the gateway error, else why samples were parked.
    public var historyNote: String? {
        if let error { return error.description }
        guard parked > 0 else { return nil }
        return "parked \(parked) sample(s) as dead letters (healthspool dead-letters): \(parkedReason ?? "rejected by the gateway")"
    }

    /// What became of the job.
    public var outcome: SyncOutcome { .job(sent: sent, parked: parked, failed: error != nil) }
}

extension Sequence where Element == SyncJobResult {
    /// The jobs as one outcome, by the one rule (`SyncOutcome.combining`).
    public var outcome: SyncOutcome { .combining(map { (outcome: $0.outcome, sent: $0.sent) }) }
}

/// Records what became of a delivered batch, on the sender's background queue.
///
/// `@unchecked Sendable`: `store` is the sender's background connection, used only on that
/// sender's background queue and in order (one task at a time); the batch is read-only by then.
private struct MarkTask: @unchecked Sendable {
    let store: SampleStore
    let batch: EncodedBatch
    let outcome: DeliveryOutcome
    let at: Timestamp
    let logger: Logger
    let type: String

    func run() {
        do {
            try store.recordDelivery(type: type, rowIDs: batch.rowIDs,
                                     rejected: outcome.rejected.map { (batch.rowIDs[$0.index], $0.reason) },
                                     retry: outcome.retry.map { batch.rowIDs[$0] }, at: at)
        } catch {
            // The gateway has them; recording that failed. They stay queued and are re-sent
            // (at-least-once; receivers deduplicate on the sample id).
            logger.error("could not mark samples synced: \(error)", metadata: ["event": "error", "type": "\(type)"])
        }
    }
}

/// The next batch, read on another queue (the sender's background queue, whose connection it
/// reads with) while the sender's thread sends the current one.
private final class Prefetch: Sendable {
    /// Nil until read.
    private let result = Lock<Result<EncodedBatch, Error>?>(nil)

    init(store: SampleStore, queue: DispatchQueue, type: String, limit: Int, after: Int64, fhirUser: String?) {
        let connection = BackgroundConnection(store: store)
        let result = self.result
        queue.async {
            let read = Result { try connection.store.queuedBatch(type: type, limit: limit, afterRowID: after, fhirUser: fhirUser) }
            result.withLock(wake: true) { $0 = read }
        }
    }

    /// The batch, once read (blocks the sender's thread, never a cooperative one).
    func wait() throws -> EncodedBatch {
        try result.wait(until: { $0 != nil }) { $0 ?? .failure(StoreError.notRead) }.get()
    }

    private enum StoreError: Error { case notRead }
}

/// A sender's background connection, handed to the queue that alone uses it.
///
/// `@unchecked Sendable`: the connection is used on the sender's background queue only, one
/// block at a time.
private struct BackgroundConnection: @unchecked Sendable {
    let store: SampleStore
}

extension SyncWorker {
    /// What the worker reports to its coordinator, in order: a sender's progress (samples sent
    /// so far by a job) and each finished job.
    public enum Report: Sendable {
        case progressed(type: String, sent: Int)
        case finished(SyncJobResult)
    }
}

/// What the senders need to know, swapped atomically on reload.
struct SyncConfig: Sendable {
    var endpoint: GatewayEndpoint
    var envelope: BatchEnvelope
    /// How many samples a request carries (larger while a backlog exists and the gateway is quick).
    var sizing: BatchSizing
}

/// A bounded sync worker: `senders` fixed senders and a queue of per-type jobs. A job for a
/// type already queued or in flight coalesces (in flight: it runs once more afterwards), so the
/// queue never holds more than one job per type. Each job reads its type's queued samples in
/// batches, oldest first, past a cursor (so nothing is sent twice in one run), and marks them
/// synced only after the gateway accepted them.
///
/// The job bookkeeping (`Jobs`) is behind one `Lock`, held only for short updates; a sender's
/// resources are touched only on that sender's queue (`SenderState`); everything else is
/// immutable. Sending and SQLite run on the sender queues, never on the cooperative pool.
public final class SyncWorker: Sendable {
    /// The jobs waiting for a sender and in flight.
    private struct Jobs {
        /// Senders without a job.
        var idle: [Int]
        var waiting: [(type: String, trigger: SyncTrigger)] = []
        var queued: Set<String> = []
        var inFlight: Set<String> = []
        /// Types asked for again while in flight: they run once more afterwards.
        var again: [String: SyncTrigger] = [:]
        var config: SyncConfig?
        var stopping = false
    }
    private let jobs: Lock<Jobs>
    private let senders: [DispatchQueue]
    private let storePath: String
    private let logger: Logger
    private let clock: @Sendable () -> Timestamp
    private let onResult: @Sendable (SyncJobResult) -> Void
    private let onProgress: @Sendable (String, Int) -> Void
    private let transport: TransportFactory
    private let onRequest: @Sendable (Double) -> Void
    private let group = DispatchGroup()
    /// How long the last request took, answered or failed, whichever sender made it (nil: none
    /// since the gateway settings last changed): it decides whether a backlog goes in larger
    /// requests (`BatchSizing`).
    private let lastRequestSeconds = Lock<Double?>(nil)
    /// The jobs under way and when one last moved on (a batch answered), for the watchdog.
    public let progress = WorkProgress(name: "sync")
    /// Per-sender resources. `@unchecked Sendable`: touched only on that sender's queue (the
    /// background store only on its background queue).
    private final class SenderState: @unchecked Sendable {
        var store: SampleStore?
        /// A second connection, used in order on its own queue: it records what became of the
        /// batch just sent and reads the next one while the current batch is on the wire.
        var backgroundStore: SampleStore?
        let backgroundQueue = DispatchQueue(label: "healthspool.sync.background")
        var client: GatewayClient?
        var endpoint: GatewayEndpoint?
    }
    private let senderStates: [SenderState]

    /// Makes a sender's connection to the gateway (called on the sender's queue, which alone
    /// uses it).
    public typealias TransportFactory = @Sendable (GatewayEndpoint) throws(GatewayError) -> any GatewayTransport

    /// The production transport: libcurl with the endpoint's TLS options.
    public static let httpsTransport: TransportFactory = { endpoint throws(GatewayError) in try HTTPSClient(options: endpoint.tls) }

    /// Creates the worker. `onProgress` is called from sender queues, `onResult` with the
    /// worker's lock held, in order (it must not call back into the worker synchronously); `onRequest`
    /// gets each gateway request's duration in seconds, from sender queues.
    public init(senders: Int, storePath: String, logger: Logger, clock: @escaping @Sendable () -> Timestamp,
                transport: @escaping TransportFactory = SyncWorker.httpsTransport,
                onProgress: @escaping @Sendable (String, Int) -> Void = { _, _ in },
                onRequest: @escaping @Sendable (Double) -> Void = { _ in },
                onResult: @escaping @Sendable (SyncJobResult) -> Void) {
        let n = max(1, senders)
        self.senders = (0..<n).map { DispatchQueue(label: "healthspool.sync.sender.\($0)") }
        self.senderStates = (0..<n).map { _ in SenderState() }
        self.jobs = Lock(Jobs(idle: Array(0..<n)))
        self.storePath = storePath
        self.logger = logger
        self.clock = clock
        self.onResult = onResult
        self.onProgress = onProgress
        self.transport = transport
        self.onRequest = onRequest
    }

    /// Replaces the gateway settings (nil: no gateway configured; jobs are not run).
    func configure(_ config: SyncConfig?) {
        jobs.withLock { $0.config = config }
        lastRequestSeconds.withLock { $0 = nil }
    }

    /// Number of queued plus in-flight jobs.
    public var pendingJobs: Int { jobs.withLock { $0.waiting.count + $0.inFlight.count } }

    /// Queues a job per type; coalesces with queued or in-flight jobs of the same type.
    public func enqueue(_ types: [String], trigger: SyncTrigger) {
        let started = jobs.withLock { j -> [Start] in
            guard !j.stopping else { return [] }
            for t in types {
                if j.inFlight.contains(t) { j.again[t] = j.again[t] ?? trigger; continue }
                if j.queued.contains(t) { continue }
                j.queued.insert(t)
                j.waiting.append((t, trigger))
            }
            return Self.assign(&j)
        }
        start(started)
    }

    /// A job handed to a sender.
    private struct Start {
        let type: String
        let trigger: SyncTrigger
        let config: SyncConfig
        let sender: Int
    }

    /// Hands waiting jobs to idle senders (the lock held); `start` runs them.
    private static func assign(_ j: inout Jobs) -> [Start] {
        guard let config = j.config, !j.stopping else { return [] }
        var out: [Start] = []
        while !j.idle.isEmpty, !j.waiting.isEmpty {
            let (type, trigger) = j.waiting.removeFirst()
            j.queued.remove(type)
            j.inFlight.insert(type)
            out.append(Start(type: type, trigger: trigger, config: config, sender: j.idle.removeFirst()))
        }
        return out
    }

    /// Runs each job on its sender's queue; when it ends the sender takes the next.
    private func start(_ started: [Start]) {
        for job in started {
            group.enter()
            senders[job.sender].async {
                self.progress.begin()
                let result = self.run(type: job.type, trigger: job.trigger, config: job.config, sender: job.sender)
                self.progress.end()
                let next = self.jobs.withLock { j -> [Start] in
                    j.inFlight.remove(job.type)
                    j.idle.append(job.sender)
                    if let t = j.again.removeValue(forKey: job.type), !j.stopping, !result.stopped, result.error == nil {
                        j.queued.insert(job.type)
                        j.waiting.append((job.type, t))
                    }
                    // Reported under the lock, once the job no longer counts as pending: a
                    // caller that sees no pending jobs has been handed every result, in order.
                    self.onResult(result)
                    return Self.assign(&j)
                }
                self.start(next)
                self.group.leave()
            }
        }
    }

    /// Removes the jobs that wait for a sender (not those in flight) and returns their types:
    /// the gateway is down, they would only fail the same way.
    public func dropQueued() -> [String] {
        jobs.withLock { j in
            let types = j.waiting.map(\.type)
            j.waiting.removeAll()
            j.queued.removeAll()
            return types
        }
    }

    /// Stops taking jobs, lets in-flight jobs finish their current batch, and waits for them.
    public func shutdown(timeoutSeconds: Int) {
        stopTakingJobs()
        _ = group.wait(timeout: .now() + .seconds(timeoutSeconds))
    }

    /// Takes no new job and drops those waiting for a sender; jobs in flight stop after their
    /// current batch. Returns at once.
    public func stopTakingJobs() {
        jobs.withLock { j in
            j.stopping = true
            j.waiting.removeAll()
            j.queued.removeAll()
        }
    }

    var isStopping: Bool { jobs.withLock { $0.stopping } }

    /// Runs `body` once no job is in flight (at once when none is), on a Dispatch thread.
    public func whenIdle(_ body: @escaping @Sendable () -> Void) {
        group.notify(queue: .global(), execute: body)
    }

    /// Returns once no job is in flight.
    public func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in whenIdle { continuation.resume() } }
    }

    /// Runs one job on a sender queue.
    private func run(type: String, trigger: SyncTrigger, config: SyncConfig, sender: Int) -> SyncJobResult {
        let started = clock()
        var result = SyncJobResult(type: type, trigger: trigger, started: started, durationMillis: 0)
        let st = senderStates[sender]
        let store: SampleStore, background: SampleStore, client: GatewayClient
        do {
            (store, background, client) = try resources(st, config: config)
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
        var cursor: Int64 = 0
        var prefetched: Prefetch?
        let fhirUser = config.endpoint.format.carriesFHIR ? config.envelope.userId : nil
        var limit = config.sizing.limit(lastRequestSeconds: lastRequestSeconds.withLock { $0 })
        while !isStopping || result.requests == 0 {
            let batch: EncodedBatch
            do { batch = try prefetched?.wait() ?? store.queuedBatch(type: type, limit: limit, afterRowID: cursor, fhirUser: fhirUser) } catch {
                result.error = .badResponse("local store: \(error)")
                break
            }
            guard let last = batch.rowIDs.last else { break }
            cursor = last
            // Read (and encode) the following batch on the sender's second connection while this
            // one is sent and marked (rows past `cursor`: nothing this batch touches).
            // The next batch's size is decided before this one is sent: by the request before it.
            limit = config.sizing.limit(lastRequestSeconds: lastRequestSeconds.withLock { $0 })
            prefetched = Prefetch(store: background, queue: st.backgroundQueue, type: type, limit: limit,
                                  after: cursor, fhirUser: fhirUser)
            let outcome = client.deliver(batch, envelope: config.envelope, now: clock())
            result.requests += outcome.requests
            result.newConnections += outcome.newConnections
            result.httpStatus = outcome.lastStatus ?? result.httpStatus
            // Recorded on the background queue (after the read of the next batch, before the one
            // after) while the next batch goes out; the job waits for it before it reports, so a
            // later job never reads these rows as queued. One queue for both keeps one thread busy
            // instead of waking two for every batch.
            let marker = MarkTask(store: background, batch: batch, outcome: outcome, at: clock(), logger: logger, type: type)
            st.backgroundQueue.async { marker.run() }
            result.sent += outcome.accepted
            result.parked += outcome.rejected.count
            if result.parkedReason == nil, let first = outcome.rejected.first { result.parkedReason = first.reason }
            for (i, reason) in outcome.rejected {
                let id = batch.ids[i]
                logger.warning("gateway rejected sample \(id) of \(type); parked as a dead letter: \(reason)",
                               metadata: ["event": "sync", "type": "\(type)", "sample": "\(id)"])
            }
            onProgress(type, result.sent)
            progress.advance()
            if !outcome.retry.isEmpty {
                result.leftQueued = outcome.retry.count
                result.error = outcome.error ?? .badResponse("records not accepted")
                result.stopped = outcome.stopped
                result.retryAfterMillis = outcome.retryAfterMillis
                break
            }
        }
        st.backgroundQueue.sync {}   // the last batch recorded: the job is done when its samples are marked
        result.durationMillis = clock().millis - started.millis
        return result
    }

    /// The sender's two connections and its gateway client, opened at its first job (the client
    /// made again when the endpoint changed). On the sender's queue.
    private func resources(_ st: SenderState, config: SyncConfig) throws -> (SampleStore, SampleStore, GatewayClient) {
        let store = try st.store ?? SampleStore(path: storePath)
        st.store = store
        let background: SampleStore
        if let b = st.backgroundStore { background = b } else {
            background = try SampleStore(path: storePath)
            try background.limitPageCache(kibibytes: 1024)
            st.backgroundStore = background
        }
        if let client = st.client, st.endpoint == config.endpoint { return (store, background, client) }
        let report = onRequest, last = lastRequestSeconds
        let timed = TimedTransport(try transport(config.endpoint)) { seconds in
            last.withLock { $0 = seconds }
            report(seconds)
        }
        let client = try GatewayClient(endpoint: config.endpoint, transport: timed)
        st.client = client
        st.endpoint = config.endpoint
        return (store, background, client)
    }
}
