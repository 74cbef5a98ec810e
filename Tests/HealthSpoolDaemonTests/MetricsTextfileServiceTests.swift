import Glibc
import HealthSpoolCore
@testable import HealthSpoolDaemon
import HealthSpoolLinux
import Testing

/// `MetricsTextfileService` on the manual clock: a round every `MetricsTiming.textfileIntervalSeconds`
/// of the service clock, an unwritable path said once (not every round), and the file written at
/// the first round after its directory appears.
@Suite(.timeLimit(.minutes(1))) struct MetricsTextfileServiceTests {
    @Test func anUnwritableTextfileIsLoggedOnceAndWrittenOnceItsDirectoryExists() async throws {
        var template = Array("/tmp/healthspool-textfile-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = try? FileSystem.removeTree(dir) }
        let path = dir + "/missing-dir/healthspool.prom"
        let clock = ManualServiceClock()
        let log = RecordedLog()
        let service = MetricsTextfileService(metrics: DaemonMetrics(storePath: dir + "/none.db", started: clock.now()),
                                             clock: clock, logger: log.logger) { path }
        let running = Task { try await service.run() }
        defer { running.cancel() }
        let interval = Int64(MetricsTiming.textfileIntervalSeconds) * 1000

        await clock.untilTimerSet()   // the first round failed and set its next wake-up
        #expect(clock.nextDeadline == clock.now().millis + interval)
        #expect(log.count(.error, event: "error") == 1)
        for _ in 0..<2 {
            clock.advance(by: interval)
            await clock.untilTimerSet()
        }
        #expect(log.count(.error, event: "error") == 1, "two more rounds failed and said nothing more")
        #expect(!FileSystem.exists(path))

        try FileSystem.makeDirectory(dir + "/missing-dir")
        clock.advance(by: interval - 1)
        #expect(clock.pendingTimers == 1, "no round before the interval")
        #expect(!FileSystem.exists(path))
        clock.advance(by: 1)
        await clock.untilTimerSet()
        #expect(FileSystem.exists(path))
        #expect(try FileSystem.readText(path)?.contains("healthspool_build_info") == true)
        #expect(log.count(.error, event: "error") == 1)
    }
}
