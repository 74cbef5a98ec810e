import Testing
import HealthSpoolCore
@testable import HealthExport

/// What the parse pipeline holds between its two threads is bounded by the text its samples
/// carry, not only by their count (issue 42: 2,048 HRV records with their beats are ~5 MB, and
/// four such batches waiting took a 1 GB import over 64 MiB).
@Suite struct ParsePipelineTests {
    /// Keeps every batch the caller's side is given, as given.
    final class BatchRecorder: SampleSink {
        private(set) var batches: [[Sample]] = []
        func accept(_ sample: consuming Sample) throws { batches.append([sample]) }
        func accept(batch: [Sample]) throws { batches.append(batch) }
    }

    /// Sample `i`, carrying `text` bytes of metadata (an HRV record's beats, a route's points).
    static func sample(_ i: Int, text: Int) -> Sample {
        Sample(type: "heartRateVariability", value: Double(i), unit: "ms", start: Timestamp(millis: Int64(i) * 1000),
               source: SampleSource(name: "Watch"), metadata: ["beats": String(repeating: "x", count: text)])
    }

    /// Runs `count` samples of `text` bytes each through a pipeline; the batches received.
    static func batches(count: Int, text: Int) throws -> [[Sample]] {
        let recorder = BatchRecorder()
        _ = try ParsePipeline.run(into: recorder) { sink in
            for i in 0..<count { try sink.accept(sample(i, text: text)) }
            return ParseReport()
        }
        return recorder.batches
    }

    @Test func aBatchIsHandedOverOnceItsTextPassesTheBound() throws {
        let text = 4096
        let batches = try Self.batches(count: 3000, text: text)
        #expect(batches.flatMap { $0 }.map(\.value) == (0..<3000).map(Double.init))
        for batch in batches {
            let bulk = batch.reduce(0) { $0 + ParsePipeline.bulk(of: $1) }
            // At most one sample past the bound: 3,000 samples of 4 KiB were one batch of 2,048 before.
            #expect(bulk < ParsePipeline.maxBulkBytes + text + "beats".utf8.count)
        }
    }

    @Test func samplesWithLittleTextStillGoInFullBatches() throws {
        let batches = try Self.batches(count: 5000, text: 40)
        #expect(batches.map(\.count) == [ParsePipeline.batchSize, ParsePipeline.batchSize, 5000 - 2 * ParsePipeline.batchSize])
    }

    @Test func aSampleLargerThanTheQueueStillGoesThrough() throws {
        let text = 2 * ParsePipeline.maxQueuedBulkBytes
        let batches = try Self.batches(count: 3, text: text)
        #expect(batches.map(\.count) == [1, 1, 1])
        #expect(batches.flatMap { $0 }.map { $0.metadata["beats"]?.utf8.count } == [text, text, text])
    }

    @Test func theQueueTakesBatchesUpToItsBytesAndItsDepth() {
        let most = ParsePipeline.maxQueuedBulkBytes
        // Into an empty queue, any batch (else one sample larger than the bound would wait forever).
        #expect(ParsePipeline.admits(bulk: 10 * most, queuedBatches: 0, queuedBulk: 0))
        #expect(ParsePipeline.admits(bulk: most / 2, queuedBatches: 1, queuedBulk: most / 2))
        #expect(!ParsePipeline.admits(bulk: most / 2 + 1, queuedBatches: 1, queuedBulk: most / 2))
        #expect(ParsePipeline.admits(bulk: 0, queuedBatches: ParsePipeline.depth - 1, queuedBulk: most))
        #expect(!ParsePipeline.admits(bulk: 0, queuedBatches: ParsePipeline.depth, queuedBulk: 0))
    }

    @Test func bulkCountsEveryMetadataKeyAndValue() {
        var s = Self.sample(0, text: 10)
        #expect(ParsePipeline.bulk(of: s) == "beats".utf8.count + 10)
        s.metadata["points"] = String(repeating: "1", count: 100)
        #expect(ParsePipeline.bulk(of: s) == "beats".utf8.count + 10 + "points".utf8.count + 100)
        s.metadata = [:]
        #expect(ParsePipeline.bulk(of: s) == 0)
    }
}
