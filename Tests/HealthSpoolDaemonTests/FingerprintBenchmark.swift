import Testing
import HealthSpoolCore
import HealthSpoolLinux
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// Timing of an import's identity (a SHA-256 of every byte) on a file, warm page cache (not a
/// test of correctness; skipped unless HS_FINGERPRINT_FILE names a file). The work is
/// libcrypto's, so a debug build times it as well as a release one:
///   head -c 1073741824 /dev/urandom > /tmp/1g.bin
///   HS_FINGERPRINT_FILE=/tmp/1g.bin swift test --filter FingerprintBenchmark
@Suite struct FingerprintBenchmark {
    static let file = getenv("HS_FINGERPRINT_FILE").map { String(cString: $0) }

    @Test(.enabled(if: file != nil)) func hashEveryByte() throws {
        let path = try #require(Self.file)
        let file = try ReadOnlyFile(path: path)
        for round in 1...3 {
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            let id = try ExportImporter.fingerprint(file, settings: Settings())
            clock_gettime(CLOCK_MONOTONIC, &end)
            let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
            let gib = Double(file.size) / Double(1 << 30)
            print("fingerprint round \(round): \(file.size) bytes in \(seconds) s = \(seconds / gib) s/GiB (\(id.prefix(40))…)")
        }
    }
}
