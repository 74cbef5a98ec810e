import Dispatch
import Synchronization
import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// A connection waiting for another's write lock gets it as soon as the holder commits and lets
/// waiting writers in (the importer, after each commit), and gives up after its own timeout with
/// a busy error; without waiters, letting them in costs nothing.
@Suite struct BusyWaitTests {
    static func storePath() -> String {
        var template = Array("/tmp/healthspool-busy-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return dir + "/store.db"
    }

    @Test func aWaitingWriterIsLetInAfterTheHoldersCommit() throws {
        let path = Self.storePath()
        let holder = try SampleStore(path: path)
        #expect(holder.letWaitingWritersIn() < .milliseconds(50), "no one waits: no pause")
        try holder.begin()
        let began = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            defer { finished.signal() }
            guard let waiter = try? SampleStore(path: path, busyTimeout: .seconds(10)) else { return }
            do {
                try waiter.begin()
                began.store(true, ordering: .sequentiallyConsistent)
                usleep(100_000)
                try waiter.commit()
            } catch {}
        }
        usleep(300_000)   // the waiter is waiting for the lock by now
        let beganTooSoon = began.load(ordering: .sequentiallyConsistent)
        #expect(!beganTooSoon)
        try holder.commit()
        let paused = holder.letWaitingWritersIn()
        let beganInTime = began.load(ordering: .sequentiallyConsistent)
        #expect(beganInTime, "the waiter took the lock before the holder went on")
        #expect(paused < .seconds(1))
        finished.wait()
    }

    @Test func aWriterGivesUpAfterItsTimeoutWithABusyError() throws {
        let path = Self.storePath()
        let holder = try SampleStore(path: path)
        try holder.begin()
        defer { holder.rollback() }
        let waiter = try SampleStore(path: path, busyTimeout: .milliseconds(200))
        let start = BusyWait.monotonicMillis()
        var failure: StoreError?
        do { try waiter.begin() } catch { failure = error }
        #expect(failure?.isBusy == true && failure?.kind == .busy, "\(String(describing: failure))")
        let waited = BusyWait.monotonicMillis() - start
        #expect(waited >= 200 && waited < 2_000, "waited \(waited) ms")
        let marked = waiter.conn.busy.isMarked
        #expect(!marked, "the mark is withdrawn when the wait gives up")
    }
}
