import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging
import ServiceLifecycle
import Testing
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The spool intake on a test's coordination queue, over a real store and spool in a temporary
/// directory, with a manual clock and the log as a sequence; one service of the daemon runs
/// it in a service group, as in the daemon.
final class IntakeFixture {
    let dir: String
    let clock = ManualServiceClock()
    let configuration: Configuration
    let intake: SpoolIntake
    let log = LogLines()
    let group: ServiceGroup
    let running: Task<Void, any Error>

    init(service: (SpoolIntake, ManualServiceClock, Logger) -> any Service) throws {
        var template = Array("/tmp/healthspool-services-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        configuration = try Configuration(environment: ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run"])
        intake = SpoolIntake(configuration: configuration, logger: log.logger, executor: QueueExecutor(queue: DispatchQueue(label: "test.coordination")),
                             clock: clock, metrics: DaemonMetrics(storePath: configuration.storePath, started: clock.now()))
        try intake.open()
        group = ServiceGroup(services: [service(intake, clock, log.logger)], logger: Logger(label: "test"))
        let group = self.group
        running = Task { try await group.run() }
    }

    deinit {
        running.cancel()
        _ = try? FileSystem.removeTree(dir)
    }

    var spool: SpoolDirectory { configuration.spool }

    /// The daemon's stop, without signals: returns once the service's `run()` has returned.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

/// Log messages as a sequence, so a test waits for a line instead of for time.
final class LogLines: Sendable {
    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() { (lines, continuation) = AsyncStream.makeStream() }

    var logger: Logger {
        let continuation = continuation
        return Logger(label: "test") { _ in Handler(continuation: continuation) }
    }

    private struct Handler: LogHandler {
        let continuation: AsyncStream<String>.Continuation
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
            continuation.yield("\(message)")
        }
    }
}

extension AsyncStream.Iterator where Element == String {
    /// The next line that contains `text` (the lines before it are passed over).
    mutating func next(containing text: String) async -> String? {
        while let line = await next() {
            if line.contains(text) { return line }
        }
        return nil
    }
}

/// `ImportService`: its `run()` handles each import's outcome, which the import queue reports
/// through the intake's `outcomes`, and returns at a stop once those end.
@Suite(.timeLimit(.minutes(1))) final class ImportServiceTests {
    let fixture: IntakeFixture
    let budget: StopBudget
    let gained = AsyncStream<[String]>.makeStream()

    init() async throws {
        let budget = StopBudget(seconds: 10, clock: ManualServiceClock())
        self.budget = budget
        fixture = try IntakeFixture { intake, _, _ in ImportService(intake: intake, budget: budget, beginStop: {}) }
        let gained = self.gained.continuation
        await fixture.intake.connect(gained: { gained.yield($0) }, changed: {})
    }

    @Test func anImportsOutcomeIsHandledThroughTheStream() async throws {
        let (intake, spool) = (fixture.intake, fixture.spool)
        var lines = fixture.log.lines.makeAsyncIterator()
        try FileSystem.writeAtomically(spool.path + "/a.json",
                                       Array(#"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"}]"#.utf8))
        await intake.admit(named: "a.json")

        let line = await lines.next(containing: "a.json")
        #expect(line == "imported a.json: 1 new, 0 duplicate, 0 revised")
        var types = gained.stream.makeAsyncIterator()
        #expect(await types.next() == ["heartRate"], "the types it gained go on to sync")
        let importing = await intake.importing
        #expect(importing == nil, "the outcome was handled on the intake")
        #expect(FileSystem.regularFile(spool.path + "/a.json") == nil)
        #expect(try FileSystem.list(spool.archive).count == 1)
    }

    @Test func runReturnsAtAStopOnceTheOutcomesEnd() async throws {
        try await fixture.stop()
        #expect(budget.outcome.unfinished.isEmpty, "ended by the outcomes, not the stop budget (its clock never moved)")
        await fixture.intake.enqueueImport("late.json")
        let importing = await fixture.intake.importing
        #expect(importing == nil, "no import starts after the stop")
    }
}

/// `RetentionService`: its `run()` is the retention loop, a pass 5 s after start-up and then
/// hourly on the service clock, and it returns at a stop. The pass removes an archived file
/// older than `spool.archive_days` (30).
@Suite(.timeLimit(.minutes(1))) final class RetentionServiceTests {
    let fixture: IntakeFixture

    init() throws {
        let (started, startedUp) = AsyncStream.makeStream(of: Void.self)
        startedUp.finish()
        fixture = try IntakeFixture { intake, clock, logger in
            RetentionService(intake: intake, clock: clock, logger: logger, started: started, beginStop: {})
        }
    }

    /// A file in archive/ modified 40 days before the clock's now.
    func archiveOldFile(_ name: String) throws -> String {
        let path = fixture.spool.archive + "/" + name
        try FileSystem.writeAtomically(path, Array("[]".utf8))
        let t = Int(fixture.clock.now().millis / 1000 - 40 * 86_400)
        var times = [timespec(tv_sec: t, tv_nsec: 0), timespec(tv_sec: t, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return path
    }

    @Test func aPassRunsFiveSecondsAfterStartThenHourly() async throws {
        let clock = fixture.clock
        var lines = fixture.log.lines.makeAsyncIterator()
        let start = clock.now().millis
        let first = try archiveOldFile("first.json")
        await clock.untilTimerSet()
        #expect(clock.nextDeadline == start + 5_000)
        clock.advance(by: 4_999)
        #expect(clock.pendingTimers == 1, "the first pass is not due yet")
        clock.advance(by: 1)
        #expect(await lines.next(containing: "removed") == "removed 1 archived and 0 failed file(s) (2 bytes)")
        #expect(!FileSystem.exists(first))

        let second = try archiveOldFile("second.json")
        await clock.untilTimerSet()
        #expect(clock.nextDeadline == start + 5_000 + 3_600_000)
        clock.advance(by: 3_599_999)
        #expect(clock.pendingTimers == 1, "the next pass is an hour after the first")
        #expect(FileSystem.exists(second))
        clock.advance(by: 1)
        #expect(await lines.next(containing: "removed") == "removed 1 archived and 0 failed file(s) (2 bytes)")
        #expect(!FileSystem.exists(second))
    }

    @Test func runReturnsAtAStop() async throws {
        await fixture.clock.untilTimerSet()
        try await fixture.stop()
        #expect(fixture.clock.pendingTimers == 0, "the sleep's timer was cancelled")
    }
}
