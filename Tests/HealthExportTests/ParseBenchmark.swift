import Foundation
import HealthExport
import HealthSpoolCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A file read with pread(2).
final class FileByteSource: ByteSource {
    let fd: Int32
    let size: Int64

    init(path: String) throws {
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ImportError.unrecognized(reason: "cannot open \(path)") }
        var st = stat()
        fstat(fd, &st)
        size = Int64(st.st_size)
    }

    deinit { close(fd) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
        guard n >= 0 else { throw ImportError.truncated(format: "file", offset: offset, reason: "read failed") }
        return n
    }
}

/// Counts what it is given and folds the ids, so nothing is optimized away.
final class CountingSink: SampleSink {
    var samples = 0
    var fold: UInt8 = 0
    var lastProgress: Int64 = 0
    var progressCalls = 0
    func accept(_ sample: consuming Sample) throws { samples += 1; fold ^= UInt8(truncatingIfNeeded: sample.id.high) }
    func progress(bytesRead: Int64) { lastProgress = bytesRead; progressCalls += 1 }
}

/// Parse-only timing of a generated export (not a test of correctness; skipped unless
/// HS_BENCH_FILE names a file). Run in release:
///   HS_BENCH_FILE=/tmp/hs-bench/250/export.xml swift test -c release -Xswiftc -enable-testing --scratch-path .build-apple-release --filter ParseBenchmark
@Suite struct ParseBenchmark {
    static let file = ProcessInfo.processInfo.environment["HS_BENCH_FILE"]

    @Test(.enabled(if: file != nil)) func parseGeneratedExport() throws {
        let path = try #require(Self.file)
        for round in 1...2 {
            let source = try FileByteSource(path: path)
            let sink = CountingSink()
            let clock = ContinuousClock()
            var format = ExportFormat.csv
            var report = ParseReport()
            let elapsed = try clock.measure {
                (format, report) = try ExportReader.parse(source, name: path, into: sink)
            }
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            print("parse round \(round): \(format.rawValue) \(source.size / 1_000_000) MB, \(sink.samples) samples, \(elapsed), problems \(report.problemCount), progress calls \(sink.progressCalls), max RSS \(usage.ru_maxrss / 1024) MiB")
            #expect(report.problemCount == 0)
        }
    }
}
