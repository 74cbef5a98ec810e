import Testing
import HealthSpoolCore
import HealthSpoolLinux
@testable import HealthSpoolStore
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// What the store and the spool keep (issue 13 item 1, issue 14 item 6), on a real store and
/// real files; time is an input.
@Suite struct RetentionTests {
    let dir: String
    let now = Timestamp(millis: 1_767_261_600_000)
    static let day: Int64 = 86_400_000

    init() throws {
        var template = Array("/tmp/healthspool-retention-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @Test func byDefaultSyncedSamplesOfAnyAgeAreKept() throws {
        let store = try SampleStore(path: dir + "/s.db")
        // Samples from years ago, delivered.
        let old = (0..<5).map { i in
            Sample(type: "heartRate", value: Double(60 + i), unit: "count/min", start: Timestamp(seconds: 1_400_000_000 + Int64(i)),
                   source: SampleSource(name: "Watch"))
        }
        _ = try store.insert(old, now: now)
        try store.recordDelivery(type: "heartRate", rowIDs: try store.queued(type: "heartRate", limit: 10).map(\.rowID), at: now)
        let report = try Retention(settings: Settings()).pruneStore(store, now: now)
        #expect(report.samples == 0)
        #expect(try store.syncedCounts() == ["heartRate": 5])
        var byAge = Settings()
        byAge.retentionDays = 30
        #expect(try Retention(settings: byAge).pruneStore(store, now: now).samples == 5)
        #expect(try store.deliveredCount() == 5)
    }

    /// A file in `folder` whose modification time is `ageDays` before `now`.
    func place(_ folder: String, _ name: String, bytes: Int, ageDays: Int64) throws {
        let path = folder + "/" + name
        try FileSystem.writeAtomically(path, [UInt8](repeating: 0x41, count: bytes))
        let t = (now.millis - ageDays * Self.day) / 1000
        var times = [timespec(tv_sec: Int(t), tv_nsec: 0), timespec(tv_sec: Int(t), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    @Test func archivedFilesGoByAgeThenOldestFirstBySizeAndFailedOnesLaterWithTheirReason() throws {
        let spool = SpoolDirectory(path: dir + "/HealthSpool")
        try spool.create()
        try place(spool.archive, "ancient.zip", bytes: 100, ageDays: 40)
        try place(spool.archive, "b-older.json", bytes: 600_000, ageDays: 5)
        try place(spool.archive, "a-newer.json", bytes: 600_000, ageDays: 4)
        try place(spool.archive, "newest.json", bytes: 300_000, ageDays: 1)
        try place(spool.failed, "bad.json", bytes: 10, ageDays: 100)
        try place(spool.failed, "bad.json.reason", bytes: 10, ageDays: 100)
        try place(spool.failed, "recent.json", bytes: 10, ageDays: 10)
        try place(spool.failed, "recent.json.reason", bytes: 10, ageDays: 10)
        try place(spool.failed, "orphan.json.reason", bytes: 10, ageDays: 200)
        // 1 MiB for the archive: 1.5 MB remain after the age limit, so the oldest goes.
        let report = try spool.prune(archiveDays: 30, archiveMaxBytes: 1 << 20, failedDays: 90, now: now)
        #expect(report.archived == ["ancient.zip", "b-older.json"])
        #expect(report.failed == ["bad.json"])
        #expect(try FileSystem.list(spool.archive) == ["a-newer.json", "newest.json"])
        #expect(try FileSystem.list(spool.failed) == ["recent.json", "recent.json.reason"])
    }

    @Test func zeroMeansNoLimit() throws {
        let spool = SpoolDirectory(path: dir + "/HealthSpool")
        try spool.create()
        try place(spool.archive, "ancient.zip", bytes: 2_000_000, ageDays: 4000)
        try place(spool.failed, "bad.json", bytes: 10, ageDays: 4000)
        let report = try spool.prune(archiveDays: 0, archiveMaxBytes: 0, failedDays: 0, now: now)
        #expect(report.archived.isEmpty && report.failed.isEmpty)
    }

    @Test func aMovedFileIsDatedByItsArrival() throws {
        let spool = SpoolDirectory(path: dir + "/HealthSpool")
        try spool.create()
        // An export written long ago, archived now: its age in the archive starts now.
        try place(spool.path, "old-export.json", bytes: 10, ageDays: 400)
        try spool.retire("old-export.json", policy: .archive, now: now)
        let arrived = try #require(FileSystem.modified(spool.archive + "/old-export.json")).millis
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        #expect(abs(arrived - Int64(ts.tv_sec) * 1000) < 60_000)
    }
}
