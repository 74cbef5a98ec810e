#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import HealthSpoolCore

/// The sync encoder's two forms paired in one run: the production `EncodedBatch` (pointer
/// buffers from a pool) and `SafeEncodedBatch` (a Swift array), rounds interleaved A, B, A, B.
/// Not a test of correctness; skipped unless HS_BENCH_ENCODER gives the sample count. Release:
///   swift build -c release -Xswiftc -enable-testing --build-tests --scratch-path .build-bench
///   HS_BENCH_ENCODER=200000 .build-bench/release/healthspoolPackageTests.xctest \
///     --testing-library swift-testing --filter EncoderBenchmark
/// Per round and form: the samples filled in batches of `HS_BENCH_BATCH` (500) as the store does
/// and each batch's body built once in each format (encode+body), then a batch narrowed down to
/// one rejected sample as `DeliveryPlanner` halves it (every part's body), for every batch.
@Suite struct EncoderBenchmark {
    static let samples = ProcessInfo.processInfo.environment["HS_BENCH_ENCODER"].flatMap { Int($0) }
    static let batch = ProcessInfo.processInfo.environment["HS_BENCH_BATCH"].flatMap { Int($0) } ?? 500
    let envelope = BatchEnvelope(deviceId: "0f3e2a1b9c8d7e6f", userId: "alice", appVersion: "0.9.0")
    let now = Timestamp(millis: 1_767_261_600_123)

    /// This thread's CPU time in seconds.
    static func cpu() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The parts a batch of `count` is sent in when sample `bad` alone is rejected.
    static func narrowing(_ count: Int, bad: Int) -> [Range<Int>] {
        var parts: [Range<Int>] = [], pending = [0..<count]
        while let part = pending.popLast() {
            parts.append(part)
            guard part.contains(bad), part.count > 1 else { continue }
            let mid = part.lowerBound + part.count / 2
            pending.append(mid..<part.upperBound)
            pending.append(part.lowerBound..<mid)
        }
        return parts
    }

    /// Encode+body in each format, then the narrowing; seconds of CPU each, and a fold of the bytes.
    func run<F: EncoderForm>(_: F.Type, rows: [EncoderRow]) -> (encode: [Double], narrow: Double, fold: Int) {
        var fold = 0, encode: [Double] = []
        for format in GatewayFormat.native {
            let t0 = Self.cpu()
            for at in stride(from: 0, to: rows.count, by: Self.batch) {
                let b = F(capacity: min(Self.batch, 4096) * 480 + 256)
                b.setType("heartRate")
                b.fill(rows[at..<min(at + Self.batch, rows.count)], sources: EncoderCorpus.sources)
                fold &+= b.withBody(0..<b.count, format: format, envelope: envelope, now: now) { $0.count &+ Int($0[$0.count - 1]) }
            }
            encode.append(Self.cpu() - t0)
        }
        let t0 = Self.cpu()
        for at in stride(from: 0, to: rows.count, by: Self.batch) {
            let b = F(capacity: min(Self.batch, 4096) * 480 + 256)
            b.setType("heartRate")
            b.fill(rows[at..<min(at + Self.batch, rows.count)], sources: EncoderCorpus.sources)
            for part in Self.narrowing(b.count, bad: b.count / 3) {
                fold &+= b.withBody(part, format: .confluentV2, envelope: envelope, now: now) { $0.count }
            }
        }
        return (encode, Self.cpu() - t0, fold)
    }

    @Test(.enabled(if: samples != nil)) func pairedSafeAndUnsafeBuffers() throws {
        let n = try #require(Self.samples)
        for (label, rows) in [("store-like", EncoderCorpus.rows(n, seed: 11, varied: false)), ("varied", EncoderCorpus.rows(n, seed: 11))] {
            var totals: [String: [Double]] = [:]
            var folds: [String: Int] = [:]
            for round in 1...5 {
                for (name, result) in [("unsafe", run(EncodedBatch.self, rows: rows)), ("safe", run(SafeEncodedBatch.self, rows: rows))] {
                    let encode = result.encode.reduce(0, +)
                    totals[name, default: []].append(encode + result.narrow)
                    if let f = folds[name] { #expect(f == result.fold) } else { folds[name] = result.fold }
                    print(String(format: "encoder %@ round %d %@: json %.3f v2 %.3f v3 %.3f encode+body %.3f narrowing %.3f s CPU (%d samples, batch %d)",
                                 label, round, name, result.encode[0], result.encode[1], result.encode[2], encode, result.narrow, n, Self.batch))
                }
            }
            #expect(folds["unsafe"] == folds["safe"])
            let unsafe = totals["unsafe"]!.sorted()[2], safe = totals["safe"]!.sorted()[2]
            print(String(format: "encoder %@ median encode+body+narrowing: unsafe %.3f s, safe %.3f s, safe/unsafe %.3f", label, unsafe, safe, safe / unsafe))
        }
    }
}
