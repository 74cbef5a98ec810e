import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// A bulk writer whose WAL is copied by `BackgroundCheckpoints`: on real SQLite, the copying
/// happens off the writer's connection, the WAL stays bounded, and nothing is lost.
@Suite struct BackgroundCheckpointTests {
    let dir: String

    init() throws {
        var template = Array("/tmp/healthspool-checkpoints-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    func batch(_ n: Int, from first: Int) -> [Sample] {
        (first..<first + n).map { i in
            let t = Int64(i) * 60_000
            return Sample(type: "heartRate", value: Double(60 + i % 40), unit: "count/min",
                          start: Timestamp(millis: t, utcOffsetSeconds: 0), end: Timestamp(millis: t, utcOffsetSeconds: 0),
                          source: SampleSource(name: "Watch"), metadata: ["n": "\(i)"])
        }
    }

    @Test func theWALIsCopiedOffTheWriterAndStaysBoundedAndNothingIsLost() throws {
        let path = dir + "/s.db"
        let store = try SampleStore(path: path)
        let threshold: Int32 = 64   // pages: small, so that a few commits pass it many times
        let checkpoints = try #require(BackgroundCheckpoints.start(for: store, threshold: threshold))
        var largestWAL = 0
        for round in 0..<60 {
            checkpoints.waitIfBehind()
            try store.begin()
            _ = try store.insert(batch(2_000, from: round * 2_000), now: Timestamp(millis: 1))
            try store.commit()
            largestWAL = max(largestWAL, fileSize(path + "-wal"))
        }
        // The writer's own automatic checkpoint is off meanwhile: pages reached the database
        // file only through the checkpoint thread.
        #expect(fileSize(path) > 1_000_000, "the database file holds the copied pages")
        // Bounded: the wait starts the WAL over at four times the threshold, give or take the
        // commit that crosses it (a commit of 2,000 rows is a few hundred pages).
        let bound = Int(threshold) * 4 * 4096 + 2 * 1_500_000
        #expect(largestWAL < bound, "largest WAL \(largestWAL) bytes")
        checkpoints.stop()
        #expect(try store.queuedCounts()["heartRate"] == 120_000)
        // Reopened by another connection: every row is there.
        let reader = try SampleStore(path: path)
        #expect(try reader.queuedCounts()["heartRate"] == 120_000)
    }

    func autocheckpoint(_ store: SampleStore) throws -> Int64 {
        let s = try store.conn.prepare("PRAGMA wal_autocheckpoint")
        _ = try s.step()
        return s.int(0)
    }

    /// SQLite reports its automatic checkpoint as 0 while another WAL hook is in place.
    @Test func stoppingGivesTheWriterItsAutomaticCheckpointBack() throws {
        let store = try SampleStore(path: dir + "/t.db")
        #expect(try autocheckpoint(store) == Int64(SampleStore.walAutocheckpointPages))
        let checkpoints = try #require(BackgroundCheckpoints.start(for: store))
        #expect(try autocheckpoint(store) == 0)
        checkpoints.stop()
        #expect(try autocheckpoint(store) == Int64(SampleStore.walAutocheckpointPages))
    }
}
