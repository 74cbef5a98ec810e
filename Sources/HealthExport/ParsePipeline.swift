#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthSpoolCore

/// Runs a parse on a second thread and hands its output to the caller's sink on the caller's
/// thread, in order, in batches through a small bounded queue.
///
/// Reading, inflating, scanning and building samples (their ids are SHA-256 hashes) overlap with
/// whatever the sink does (the importer's SQLite inserts): on two cores an import takes about
/// the longer of the two instead of their sum. Memory stays bounded: at most `depth` batches of
/// `batchSize` samples are in flight. The sink is only ever called on the caller's thread.
final class ParsePipeline {
    /// What travels from the parsing thread to the caller.
    enum Item {
        case samples([Sample])
        case profile([(String, String)])
        case progress(Int64)
        case finished(Result<ParseReport, Error>)
    }

    static let batchSize = 2048
    static let depth = 4

    private var queue: [Item] = []
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var cancelled = false
    private var queuedBatches = 0

    private init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Runs `parse` (given a sink to write to) on a new thread; calls `sink` here.
    static func run(into sink: SampleSink, _ parse: @escaping (SampleSink) throws -> ParseReport) throws -> ParseReport {
        let pipeline = ParsePipeline()
        let producer = BatchingSink(pipeline)
        guard let thread = startThread({
            let result = Result { try parse(producer) }
            producer.flush()        // everything read before an error is handed over too
            pipeline.push(.finished(result))
        }) else {
            // No thread: parse here, straight into the sink.
            return try parse(sink)
        }
        defer { pthread_join(thread, nil) }
        while true {
            switch pipeline.pop() {
            case let .samples(batch):
                do {
                    try sink.accept(batch: batch)
                } catch {
                    pipeline.cancel()
                    while case .some = pipeline.drainOne() {}
                    throw error
                }
            case let .profile(p): sink.profile(p)
            case let .progress(n): sink.progress(bytesRead: n)
            case let .finished(result): return try result.get()
            }
        }
    }

    /// Thrown inside the parsing thread when the caller stopped listening.
    struct Cancelled: Error {}

    fileprivate func push(_ item: Item) {
        pthread_mutex_lock(&mutex)
        if case .samples = item {
            while queuedBatches >= Self.depth, !cancelled { pthread_cond_wait(&changed, &mutex) }
            queuedBatches += 1
        }
        queue.append(item)
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    fileprivate var isCancelled: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return cancelled
    }

    private func pop() -> Item {
        pthread_mutex_lock(&mutex)
        while queue.isEmpty { pthread_cond_wait(&changed, &mutex) }
        let item = queue.removeFirst()
        if case .samples = item { queuedBatches -= 1 }
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        return item
    }

    /// After a cancel: waits for the parsing thread to finish, dropping what it sends.
    private func drainOne() -> Item? {
        let item = pop()
        if case .finished = item { return nil }
        return item
    }

    private func cancel() {
        pthread_mutex_lock(&mutex)
        cancelled = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// The sink the parsing thread writes to: collects batches for the caller's sink.
    private final class BatchingSink: SampleSink {
        let pipeline: ParsePipeline
        var batch: [Sample] = []

        init(_ pipeline: ParsePipeline) {
            self.pipeline = pipeline
            batch.reserveCapacity(ParsePipeline.batchSize)
        }

        func accept(_ sample: consuming Sample) throws {
            batch.append(sample)
            if batch.count == ParsePipeline.batchSize {
                if pipeline.isCancelled { throw Cancelled() }
                flush()
            }
        }

        func flush() {
            guard !batch.isEmpty else { return }
            pipeline.push(.samples(batch))
            batch = []
            batch.reserveCapacity(ParsePipeline.batchSize)
        }

        func profile(_ attributes: [(String, String)]) {
            flush()
            pipeline.push(.profile(attributes))
        }

        func progress(bytesRead: Int64) {
            flush()
            pipeline.push(.progress(bytesRead))
        }
    }
}
