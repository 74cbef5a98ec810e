import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Testing
@testable import HealthSpoolConfig
#if canImport(Glibc)
import Glibc
#endif

/// The web interface's store connections: a borrower gets the same connection each time (none
/// opened per request), a moved store (a reload's `state_dir`) gets a connection of its own,
/// and what is written through the writer is read through a reader.
@Suite(.timeLimit(.minutes(1))) struct StorePoolTests {
    func temporaryContext(_ state: String = "state") throws -> (Configuration, String) {
        var template = Array("/tmp/healthspool-pool-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return (try Configuration(environment: ["HOME": dir, "HEALTHSPOOL_STATE_DIR": dir + "/" + state, "TZ": "UTC"]), dir)
    }

    @Test func theWriterLendsTheSameConnectionToEachBorrower() async throws {
        let (context, dir) = try temporaryContext()
        defer { _ = try? FileSystem.removeTree(dir) }
        let pool = try StorePool(readers: 1)
        let first = try await pool.borrow(.write, context) { ObjectIdentifier($0) }
        let second = try await pool.borrow(.write, context) { ObjectIdentifier($0) }
        #expect(first == second)
    }

    @Test func aStoreMovedByAReloadGetsAConnectionOfItsOwn() async throws {
        let (context, dir) = try temporaryContext()
        defer { _ = try? FileSystem.removeTree(dir) }
        let moved = try Configuration(environment: ["HOME": dir, "HEALTHSPOOL_STATE_DIR": dir + "/moved", "TZ": "UTC"])
        let pool = try StorePool(readers: 1)
        try await pool.borrow(.write, context) { try $0.setState("where", "first") }
        let there = try await pool.borrow(.write, moved) { try $0.state("where") }
        #expect(there == nil)
        #expect(FileSystem.exists(moved.storePath))
    }

    @Test func whatTheWriterWritesAReaderReads() async throws {
        let (context, dir) = try temporaryContext()
        defer { _ = try? FileSystem.removeTree(dir) }
        let pool = try StorePool(readers: 2)
        try await pool.borrow(.write, context) { try $0.setState("note", "written") }
        let read = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<4 { group.addTask { try await pool.borrow(.read, context) { try $0.state("note") } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(read == Array(repeating: "written", count: 4))
    }
}
