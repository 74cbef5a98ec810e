import Dispatch
import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Several connections opening a new store at once (the daemon and a CLI command) each find
/// the schema applied once: a step another one applied meanwhile is not applied again.
@Suite struct ConcurrentMigrationTests {
    @Test func connectionsOpeningANewStoreTogetherAllSucceed() throws {
        for round in 0..<10 {
            var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
            let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
            let path = dir + "/race\(round).db"
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do { _ = try SampleStore(path: path) } catch { failures.add("\(error)") }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
        }
    }

    /// Another connection holds the write lock of a new store for a moment while a second opens
    /// it: switching the file to WAL needs that lock and SQLite refuses at once (no busy
    /// timeout while holding a read lock), so the open tries again, waits for the lock to be
    /// released and succeeds.
    @Test func openingWaitsForAnotherConnectionsWriteLockAndSucceeds() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let path = dir + "/held.db"
        let holder = try Connection(path: path)
        try holder.exec("BEGIN IMMEDIATE")
        let released = Failures()
        let release = DispatchSemaphore(value: 0)
        let holding = Holder(holder)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) {
            released.add("released")
            try? holding.connection.exec("COMMIT")
            release.signal()
        }
        let store = try SampleStore(path: path)
        #expect(released.all == ["released"], "the open finished before the lock was released")
        #expect(store.openRetries > 0)
        #expect(try store.queuedCounts().isEmpty)
        release.wait()
    }
}

/// A connection handed to the thread that releases its lock (used by one thread at a time).
private final class Holder: @unchecked Sendable {
    let connection: Connection
    init(_ connection: Connection) { self.connection = connection }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLockLike()
    private var items: [String] = []
    func add(_ s: String) { lock.run { items.append(s) } }
    var all: [String] { lock.run { items } }
}

/// A pthread mutex (no Foundation in this target).
private final class NSLockLike: @unchecked Sendable {
    private var m = pthread_mutex_t()
    init() { pthread_mutex_init(&m, nil) }
    func run<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&m)
        defer { pthread_mutex_unlock(&m) }
        return body()
    }
}
