#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthSpoolCore
import HealthSpoolLock

/// Runs a parse on a second thread and hands its output to the caller's sink on the caller's
/// thread, in order, in batches through a small bounded queue.
///
/// Reading, inflating, scanning and building samples (their ids are SHA-256 hashes) overlap with
/// whatever the sink does (the importer's SQLite inserts): on two cores an import takes about
/// the longer of the two instead of their sum. Memory stays bounded: at most `depth` batches of
/// `batchSize` samples are in flight, and the text the samples carry (`bulk`: metadata such as
/// a route part's points, an ECG's voltages, an HRV record's beats) is bounded too: a batch is
/// handed over once its text passes `maxBulkBytes`, and the batches waiting hold at most
/// `maxQueuedBulkBytes` of it. The sink is only ever called on the caller's thread.
final class ParsePipeline {
    /// What travels from the parsing thread to the caller.
    enum Item {
        /// A batch, and its samples' text in bytes (`bulk(of:)`).
        case samples([Sample], bulk: Int)
        case profile([(String, String)])
        case fullExport(Timestamp)
        case progress(Int64)
        case finished(Result<ParseReport, Error>)
    }

    static let batchSize = 2048
    static let depth = 4
    /// A batch is handed over early once its samples' text passes this many bytes: 2048 ECGs of
    /// ~110 KB each would be 220 MB in one batch, 2048 HRV records with their beats ~5 MB.
    static let maxBulkBytes = 512 << 10
    /// The batches waiting for the caller hold at most this many bytes of text; a batch that
    /// alone holds more waits for an empty queue. With the batch being filled and the one
    /// being stored, about 2 MiB of text are in flight at most (four queued batches of HRV
    /// records took a 1 GB import's peak RSS up by 7.5 MiB: BENCHMARKS.md, issue 42).
    static let maxQueuedBulkBytes = 1 << 20

    /// The bytes of text `sample` carries: its metadata's keys and values (the rest of a sample
    /// is a few fixed fields and strings shared between samples).
    @inline(__always)
    static func bulk(of sample: borrowing Sample) -> Int {
        if sample.metadata.isEmpty { return 0 }
        var n = 0
        for (k, v) in sample.metadata { n += k.utf8.count + v.utf8.count }
        return n
    }

    /// Whether a batch carrying `bulk` bytes joins a queue holding `queuedBatches` batches with
    /// `queuedBulk` bytes: under `depth` batches and `maxQueuedBulkBytes` bytes, or into an
    /// empty queue whatever its size (a single sample larger than the bound still goes through).
    static func admits(bulk: Int, queuedBatches: Int, queuedBulk: Int) -> Bool {
        queuedBatches == 0 || (queuedBatches < depth && queuedBulk + bulk <= maxQueuedBulkBytes)
    }

    /// What the two threads share: the items in order, how many are sample batches, whether
    /// the caller stopped listening.
    private struct Shared {
        var queue: [Item] = []
        var cancelled = false
        var queuedBatches = 0
        /// The text the queued batches carry, in bytes.
        var queuedBulk = 0
    }
    private let shared = Lock(Shared())

    private init() {}

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
            case let .samples(batch, _):
                do {
                    try sink.accept(batch: batch)
                } catch {
                    pipeline.cancel()
                    while case .some = pipeline.drainOne() {}
                    throw error
                }
            case let .profile(p): sink.profile(p)
            case let .fullExport(date): sink.fullExport(exportDate: date)
            case let .progress(n): sink.progress(bytesRead: n)
            case let .finished(result): return try result.get()
            }
        }
    }

    /// Thrown inside the parsing thread when the caller stopped listening.
    struct Cancelled: Error {}

    fileprivate func push(_ item: Item) {
        if case let .samples(_, bulk) = item {
            shared.wait(until: { Self.admits(bulk: bulk, queuedBatches: $0.queuedBatches, queuedBulk: $0.queuedBulk) || $0.cancelled }) { s in
                s.queuedBatches += 1
                s.queuedBulk += bulk
                s.queue.append(item)
            }
        } else {
            shared.withLock(wake: true) { $0.queue.append(item) }
        }
    }

    fileprivate var isCancelled: Bool { shared.withLock { $0.cancelled } }

    private func pop() -> Item {
        shared.wait(until: { !$0.queue.isEmpty }) { s in
            let item = s.queue.removeFirst()
            if case let .samples(_, bulk) = item {
                s.queuedBatches -= 1
                s.queuedBulk -= bulk
            }
            return item
        }
    }

    /// After a cancel: waits for the parsing thread to finish, dropping what it sends.
    private func drainOne() -> Item? {
        let item = pop()
        if case .finished = item { return nil }
        return item
    }

    private func cancel() {
        shared.withLock(wake: true) { $0.cancelled = true }
    }

    /// The sink the parsing thread writes to: collects batches for the caller's sink.
    private final class BatchingSink: SampleSink {
        let pipeline: ParsePipeline
        var batch: [Sample] = []
        /// Bytes of text the samples in `batch` carry (`ParsePipeline.bulk(of:)`).
        var bulk = 0

        init(_ pipeline: ParsePipeline) {
            self.pipeline = pipeline
            batch.reserveCapacity(ParsePipeline.batchSize)
        }

        func accept(_ sample: consuming Sample) throws {
            bulk += ParsePipeline.bulk(of: sample)
            batch.append(sample)
            if batch.count == ParsePipeline.batchSize || bulk >= ParsePipeline.maxBulkBytes {
                if pipeline.isCancelled { throw Cancelled() }
                flush()
            }
        }

        func flush() {
            guard !batch.isEmpty else { return }
            pipeline.push(.samples(batch, bulk: bulk))
            batch = []
            bulk = 0
            batch.reserveCapacity(ParsePipeline.batchSize)
        }

        func profile(_ attributes: [(String, String)]) {
            flush()
            pipeline.push(.profile(attributes))
        }

        func fullExport(exportDate: Timestamp) {
            flush()
            pipeline.push(.fullExport(exportDate))
        }

        func progress(bytesRead: Int64) {
            flush()
            pipeline.push(.progress(bytesRead))
        }
    }
}
