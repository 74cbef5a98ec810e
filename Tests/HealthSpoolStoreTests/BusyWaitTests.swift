import Dispatch
import Foundation
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

    /// Whether a connection to the store at `path` marks that it waits (holds the mark file
    /// shared), within `seconds`.
    static func waitForAMark(on path: String, seconds: Int) -> Bool {
        let fd = open(path + "-waiting", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(fd) }
        for _ in 0..<(seconds * 1000) {
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { return true }
            flock(fd, LOCK_UN)
            usleep(1_000)
        }
        return false
    }

    @Test func aWaitingWriterIsLetInAfterTheHoldersCommit() throws {
        let path = Self.storePath()
        let holder = try SampleStore(path: path)
        #expect(holder.letWaitingWritersIn() < .milliseconds(50), "no one waits: no pause")
        try holder.begin()
        let began = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        // A thread of its own: on a Dispatch queue the waiter may not start while the rest of
        // the suite keeps Dispatch's threads busy (the holder then commits with no one waiting).
        let waiterThread = Thread {
            defer { finished.signal() }
            guard let waiter = try? SampleStore(path: path, busyTimeout: .seconds(10)) else { return }
            do {
                try waiter.begin()
                began.store(true, ordering: .sequentiallyConsistent)
                usleep(100_000)
                try waiter.commit()
            } catch {}
        }
        waiterThread.start()
        #expect(Self.waitForAMark(on: path, seconds: 10), "the waiter marked that it waits for the lock")
        let beganTooSoon = began.load(ordering: .sequentiallyConsistent)
        #expect(!beganTooSoon)
        try holder.commit()
        let paused = holder.letWaitingWritersIn()
        // The waiter withdraws its mark once it holds the lock, a few instructions before it
        // says so; 50 ms covers a preemption in between (it then holds the lock 100 ms).
        var beganInTime = began.load(ordering: .sequentiallyConsistent)
        for _ in 0..<50 where !beganInTime {
            usleep(1_000)
            beganInTime = began.load(ordering: .sequentiallyConsistent)
        }
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
