import HealthExport
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The result of importing one file.
public struct ImportSummary: Sendable {
    public var file: String
    public var format: String?
    /// imported, partial (some samples kept, file quarantined), failed, unchanged (seen before), or
    /// interrupted (stopped at a batch boundary by `ExportImporter.interrupt()`: what was committed
    /// is kept, the file stays in the spool and is imported again, idempotently, next time).
    public var outcome: ImportOutcome
    public var result = InsertResult()
    /// Samples of disabled types, by type.
    public var skipped: [String: Int] = [:]
    public var reason: String?
    /// The first problems, as text (capped; `problemCount` and `problemKinds` have them all).
    public var problems: [String] = []
    /// Every problem noted, by kind.
    public var problemCount = 0
    public var problemKinds: [ParseReport.ProblemKind] = []
    /// What the file held that is not read (sections, elements), with counts: never dropped
    /// without a word.
    public var notRead: [String: Int] = [:]

    /// The text of the `.reason` file beside a failed file: the one-line reason, then every
    /// kind of problem with its count and first examples.
    public var reasonDetail: String {
        var lines = [reason ?? "unknown error"]
        if !problemKinds.isEmpty {
            lines.append("problems: \(problemCount), by kind:")
            for k in problemKinds {
                lines.append("  \(k.count) × \(k.kind)")
                for e in k.examples { lines.append("      e.g. \(e.description)") }
            }
        }
        if !notRead.isEmpty {
            lines.append("not read: " + Self.list(notRead))
        }
        return lines.joined(separator: "\n")
    }

    /// `a (3), b (1)`, sorted by name.
    public static func list(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
    }
    public var durationMillis: Int64 = 0
    /// The ExportDate of a full Apple Health export (nil for any other file).
    public var exportDate: Timestamp?
    /// What a full export showed deleted on the phone (nil when nothing was inferred).
    public var deletions: InferredDeletions?
    /// Set when the import failed for a local reason that goes away (a full disk, a
    /// permission): the daemon keeps the file in the spool and retries it.
    public var temporary: TemporaryCause?
}

/// Thrown by a sink asked to stop: the parse ends at a batch boundary.
struct ImportInterrupted: Error, CustomStringConvertible {
    var description: String { "the import was interrupted (the daemon is stopping)" }
}

/// Receives parsed samples and writes them to the store in large transactions. Between batches
/// it checks `interrupted`: once set, it commits what it inserted and stops the parse.
final class StoreSink: SampleSink {
    let store: SampleStore
    let interrupted: @Sendable () -> Bool
    /// Whether the sink stopped the parse because `interrupted` said so.
    private(set) var stoppedEarly = false
    let settings: Settings
    let clock: () -> Timestamp
    let progressHandler: ((Int64, Int) -> Void)?
    var batch: [Sample] = []
    var summary: ImportSummary
    var accepted = 0
    /// Samples go to SQLite in small batches, so inserting keeps pace with the parser on the
    /// other thread instead of waiting for a large batch to fill…
    /// Copies the WAL into the database on another thread while the import writes, if started.
    var checkpoints: BackgroundCheckpoints?
    let insertEvery = 2_048
    /// …but are committed in large transactions: hot index pages are written to the WAL once
    /// per transaction, not once per batch…
    let commitEvery = 20_000
    /// …or as soon as one has been open this long: a journal command waiting for the write lock
    /// (`SampleStore.letWaitingWritersIn`, after each commit) never waits much longer than this.
    let commitAfter: Duration = .milliseconds(500)
    private let transactionClock = ContinuousClock()
    private var openedAt: ContinuousClock.Instant?
    private var open = false
    private var uncommitted = 0
    private var pending = InsertResult()

    init(store: SampleStore, settings: Settings, clock: @escaping () -> Timestamp, summary: ImportSummary,
         progress: ((Int64, Int) -> Void)?, interrupted: @escaping @Sendable () -> Bool = { false }) {
        self.store = store
        self.interrupted = interrupted
        self.settings = settings
        self.clock = clock
        self.summary = summary
        self.progressHandler = progress
        batch.reserveCapacity(insertEvery)
    }

    /// Whether each type seen so far is enabled: `Settings.isEnabled` resolves names and
    /// categories, too much to repeat for every sample of an export.
    private var enabled: [String: Bool] = [:]

    func accept(_ sample: consuming Sample) throws {
        guard isEnabled(sample.type) else {
            skip(sample.type)
            return
        }
        if noteSeen { seen.insert(sample.id) }
        batch.append(sample)
        accepted += 1
        if batch.count >= insertEvery { try insertBatch() }
    }

    /// A parser's batch goes to the store as it is when every type in it is enabled (no copy).
    func accept(batch samples: [Sample]) throws {
        var lastType = ""
        for s in samples where s.type != lastType {
            guard isEnabled(s.type) else {
                for s in samples { try accept(s) }
                return
            }
            lastType = s.type
        }
        try insertBatch()
        if noteSeen { seen.insert(idsOf: samples) }
        accepted += samples.count
        try insert(samples)
    }

    /// A type whose name is not a name (`TypeName.isStorable`) is not stored either: its samples
    /// are counted under `notRead`, the name escaped (it ends up in a log line).
    private func isEnabled(_ type: String) -> Bool {
        if let known = enabled[type] { return known }
        let on = TypeName.isStorable(type) && settings.isEnabled(type)
        enabled[type] = on
        return on
    }

    /// Counts a sample that is not stored: its type is disabled, or its name is not a name.
    private func skip(_ type: String) {
        if TypeName.isStorable(type) {
            summary.skipped[type, default: 0] += 1
        } else {
            summary.notRead["samples whose type is not a type name (\"\(EscapedText.escape(String(type.prefix(64))))\")", default: 0] += 1
        }
    }

    func profile(_ attributes: [(String, String)]) {
        try? store.setProfile(attributes, at: clock())
    }

    func progress(bytesRead: Int64) { progressHandler?(bytesRead, accepted) }

    /// The ids a full export held (`fullExport(exportDate:)` turns the noting on).
    var seen = SeenSampleIDs()
    /// Whether `seen` is kept: only when the export can be compared with an earlier one.
    private(set) var noteSeen = false

    func fullExport(exportDate: Timestamp) {
        summary.exportDate = exportDate
        store.storingFullExport = true
        // The ids are kept only when they will be compared: an older full export was imported
        // before (`DeletionInference.eligibility`). A first export, or one no newer, keeps none
        // and is imported as flat in memory as any file (8 bytes a sample, and as many again to
        // sort them, took a 1 GB first import from 57 to 86 MiB). When the store cannot say,
        // they are kept.
        do {
            let newest = try store.state(ExportImporter.newestFullExportKey).flatMap { Int64($0) }.map { Timestamp(millis: $0) }
            if case .infer = DeletionInference.eligibility(exportDate: exportDate, newestSeen: newest, clean: true) {
                noteSeen = true
                seen = SeenSampleIDs(expected: try ExportImporter.expectedSampleCount(store))
            } else {
                noteSeen = false
            }
        } catch {
            noteSeen = true
        }
    }

    /// Inserts the gathered samples into the open transaction.
    private func insertBatch() throws {
        guard !batch.isEmpty else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        try insert(batch)
    }

    /// Inserts `samples` into the open transaction (opening one), and commits when it holds
    /// enough. Counts reach the summary only once committed.
    private func insert(_ samples: [Sample]) throws {
        // The batch boundary: a stop request ends the import here, keeping what was inserted.
        if stoppedEarly || interrupted() {
            stoppedEarly = true
            try commit()
            throw ImportInterrupted()
        }
        if !open {
            checkpoints?.waitIfBehind()
            try store.begin()
            open = true
            openedAt = transactionClock.now
        }
        do {
            pending.add(try store.insert(samples, now: clock()))
        } catch {
            abandon()
            throw error
        }
        uncommitted += samples.count
        if uncommitted >= commitEvery || openedAt.map({ transactionClock.now - $0 >= commitAfter }) == true {
            try commit()
            store.letWaitingWritersIn()
        }
    }

    private func commit() throws {
        guard open else { return }
        do { try store.commit() } catch {
            abandon()
            throw error
        }
        summary.result.add(pending)
        open = false
        pending = InsertResult()
        uncommitted = 0
    }

    /// Rolls the open transaction back: its samples are not stored and not counted.
    private func abandon() {
        store.rollback()
        open = false
        pending = InsertResult()
        uncommitted = 0
    }

    /// Stores and commits everything gathered so far (after an interruption: commits what was
    /// inserted, and leaves the rest to the next import of the file).
    func flush() throws {
        if !stoppedEarly { try insertBatch() }
        try commit()
    }
}

/// A flag set once, read from any thread.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// Imports spool files: parse in a stream, commit samples in large transactions, and only then
/// move the file out of the spool (archive/ or deleted); a file that cannot be imported goes to
/// failed/ beside a `.reason` file. Samples read before a problem are kept: they are facts.
///
/// `@unchecked Sendable`: `importFile` runs on one thread at a time (the daemon's import queue,
/// or the CLI's main thread), which alone uses `store`; only `interrupt()` and `isInterrupted`
/// are called from other threads, and they touch nothing but an atomic flag.
public final class ExportImporter: @unchecked Sendable {
    let store: SampleStore
    let logger: Logger
    let clock: @Sendable () -> Timestamp
    private let stopRequested = StopFlag()

    /// Makes `store`'s commits durable (`synchronous=FULL`): the caller moves a file out of the
    /// spool once `importFile` returns, so its samples must survive a power loss by then.
    public init(store: SampleStore, logger: Logger, clock: @escaping @Sendable () -> Timestamp) {
        self.store = store
        self.logger = logger
        self.clock = clock
        do { try store.requireDurableCommits() } catch {
            logger.error("could not make the store's commits durable: \(error)", metadata: ["event": "error"])
        }
    }

    /// Asks the import in progress (and any later one) to stop at its next batch boundary, from
    /// any thread. Its committed samples are kept; `importFile` returns outcome `interrupted`.
    public func interrupt() { stopRequested.set() }

    /// The identity of an import: a SHA-256 of every byte of the file, read in one pass before
    /// parsing (an identical re-drop is then archived without being parsed), plus a digest of
    /// the settings that shaped the import (the enabled and disabled types), so a file re-dropped
    /// after `types enable` is imported again. The pass leaves the file's pages cached for the
    /// parse that follows.
    static func fingerprint(_ file: ReadOnlyFile, settings: Settings) throws -> String {
        let digest = SHA256.Stream()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        try buffer.withUnsafeMutableBytes { buf in
            while true {
                let n = pread(file.fd, buf.baseAddress, buf.count, off_t(offset))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError("read", file.path)
                }
                if n == 0 { break }
                digest.update(UnsafeRawBufferPointer(rebasing: buf[0..<n]))
                offset += Int64(n)
            }
        }
        let hex = digest.finish().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "v2:\(offset):sha256=\(hex):types=\(settings.typeFilterDigest)"
    }

    /// Imports `path` (whose spool name is `name`) and returns what happened; the caller moves
    /// the file. `progress` gets (bytes read, samples so far).
    public func importFile(path: String, name: String, settings: Settings,
                           progress: ((Int64, Int) -> Void)? = nil) -> ImportSummary {
        let started = clock()
        var summary = ImportSummary(file: name, outcome: .imported)
        let file: ReadOnlyFile
        do { file = try ReadOnlyFile(path: path) } catch {
            summary.outcome = .failed
            summary.reason = "\(error)"
            summary.temporary = TemporaryCause(error)
            return summary
        }
        var fingerprint: String?
        do {
            fingerprint = try Self.fingerprint(file, settings: settings)
            if let fp = fingerprint, try store.hasImported(fingerprint: fp) {
                summary.outcome = .unchanged
                summary.reason = "identical to a file imported before"
                record(summary, fingerprint: fingerprint, started: started)
                return summary
            }
        } catch {
            logger.warning("could not fingerprint \(name): \(error)", metadata: ["event": "import", "file": "\(name)"])
        }
        // The source priority may have changed at a reload (the zone is the machine's).
        if store.rollupPolicy.priority != settings.sourcePriority { store.rollupPolicy.priority = settings.sourcePriority }
        // The commits mark the days they touch; their rollups are computed once, at the end.
        store.rollupsDeferred = true
        // The WAL is copied into the database by a thread of its own meanwhile.
        let checkpoints = BackgroundCheckpoints.start(for: store)
        // Half the usual page cache: an import appends to each index's right edge, and a 1 GB
        // export's import stays under 64 MiB (measured in BENCHMARKS.md: 67 → 57 MiB, CPU alike).
        try? store.limitPageCache(kibibytes: Self.importPageCacheKiB)
        defer { try? store.limitPageCache(kibibytes: SampleStore.pageCacheKiB) }
        let sink = StoreSink(store: store, settings: settings, clock: clock, summary: summary, progress: progress,
                             interrupted: { [stopRequested] in stopRequested.isSet })
        sink.checkpoints = checkpoints
        store.beginArrivals()
        defer { store.storingFullExport = false }
        var failure: String?
        var temporary: TemporaryCause?
        do {
            let (format, report) = try ExportReader.parse(FileByteSource(file), name: name, into: sink)
            sink.summary.format = format.rawValue
            sink.summary.notRead.merge(report.ignored, uniquingKeysWith: +)
            if report.problemCount > 0 {
                // One line naming every kind of problem with its count and a first example.
                let kinds = report.problemKinds.map { k in
                    "\(k.count) × \(k.kind)" + (k.examples.first.map { " (first: \($0.description))" } ?? "")
                }
                failure = "\(report.problemCount) part(s) could not be read, \(kinds.count) kind(s): " + kinds.joined(separator: "; ")
                sink.summary.problems = report.problems.map(\.description)
                sink.summary.problemCount = report.problemCount
                sink.summary.problemKinds = report.problemKinds
            }
        } catch {
            failure = "\(error)"
            temporary = TemporaryCause(error)
        }
        do { try sink.flush() } catch {
            failure = (failure.map { $0 + "; " } ?? "") + "storing samples failed: \(error)"
            temporary = temporary ?? TemporaryCause(error)
        }
        do { try store.endArrivals() } catch {
            logger.warning("could not note when \(name)'s sources last delivered: \(error)", metadata: ["event": "import", "file": "\(name)"])
        }
        store.storingFullExport = false
        if failure == nil, !sink.stoppedEarly, let date = sink.summary.exportDate {
            sink.seen.seal()
            sink.summary.deletions = inferDeletions(exportDate: date, seen: sink.seen, kept: sink.noteSeen, held: sink.accepted, settings: settings, name: name)
        }
        // The ids are not needed any more: their memory goes before the rollups are settled.
        sink.seen = SeenSampleIDs()
        settleRollups(name)
        checkpoints?.stop()
        summary = sink.summary
        summary.temporary = temporary
        if sink.stoppedEarly {
            // Not a failure of the file: the rest of it is read when it is imported again.
            summary.outcome = .interrupted
            summary.temporary = nil
            summary.reason = "interrupted at a batch boundary after \(summary.result.new + summary.result.duplicates + summary.result.revised) samples; the file stays in the spool"
            summary.durationMillis = clock().millis - started.millis
            record(summary, fingerprint: nil, started: started)
            return summary
        }
        if let failure {
            summary.outcome = .parsed(stored: summary.result.new + summary.result.duplicates + summary.result.revised, problem: true)
            summary.reason = failure
        }
        absorbSymptoms(into: &summary, settings: settings)
        summary.durationMillis = clock().millis - started.millis
        record(summary, fingerprint: failure == nil ? fingerprint : nil, started: started)
        return summary
    }

    /// Computes the rollups of days an earlier import marked and never settled (it died
    /// before its end); nothing when there are none.
    public func settleLeftoverRollups() {
        guard let n = try? store.dirtyDayCount(), n > 0 else { return }
        settleRollups("an earlier file")
        logger.info("computed the day totals of \(n) day(s) an import that did not finish had left",
                    metadata: ["event": "import"])
    }

    /// The import connection's page cache while it imports.
    static let importPageCacheKiB = 8192

    /// How many marked days make the settle worth a second connection and thread.
    static let parallelSettleFrom = 64

    /// Ends the import's deferral of rollups and computes those of the days it marked (a
    /// failure leaves the marks: readers compute marked days themselves, the next import retries).
    private func settleRollups(_ name: String) {
        store.rollupsDeferred = false
        do {
            // Many marked days (a first import): a second connection computes half of them.
            if try store.dirtyDayCount() >= Self.parallelSettleFrom, let reader = try? SampleStore(path: store.path) {
                // It reads each day once: a small page cache keeps the import's peak memory.
                try? reader.limitPageCache(kibibytes: 2048)
                try store.settleRollups(alongside: reader)
            } else {
                try store.settleRollups()
            }
        } catch {
            logger.warning("could not compute the day totals after importing \(name): \(error)",
                           metadata: ["event": "import", "file": "\(name)"])
        }
    }

    func record(_ s: ImportSummary, fingerprint: String?, started: Timestamp) {
        let skipped = s.skipped.values.reduce(0, +)
        do {
            try store.recordImport(ImportRecord(file: s.file, fingerprint: fingerprint, format: s.format, at: started,
                                                durationMillis: s.durationMillis, outcome: s.outcome.rawValue, new: s.result.new,
                                                duplicates: s.result.duplicates, revised: s.result.revised,
                                                skipped: skipped, reason: s.reason))
        } catch {
            logger.error("could not record the import of \(s.file): \(error)", metadata: ["event": "error"])
        }
    }
}
