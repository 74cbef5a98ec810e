#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
@testable import HealthSpoolLinux

/// The spool watcher on real inotify, in a temporary directory: which changes are reported as a
/// file ready or gone, and which are not reported at all (a file still being written).
@Suite struct SpoolWatcherTests {
    /// The events the watcher reported, in order, read from any thread.
    final class Seen: Sendable {
        private let events = Mutex<[WatchEvent]>([])
        func add(_ e: WatchEvent) { events.withLock { $0.append(e) } }
        var all: [WatchEvent] { events.withLock { $0 } }

        /// Waits (up to 10 s, polling) until `ok` holds for the events so far; returns them.
        @discardableResult
        func wait(until ok: ([WatchEvent]) -> Bool) -> [WatchEvent] {
            for _ in 0..<1000 where !ok(all) { usleep(10_000) }
            return all
        }
    }

    let dir: String
    let seen = Seen()
    let watcher: SpoolWatcher

    init() throws {
        var template = Array("/tmp/hs-watch-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FileError("mkdtemp", "/tmp") }
        dir = String(cString: made)
        let seen = self.seen
        watcher = try SpoolWatcher(directories: [dir], queue: DispatchQueue(label: "watch-test")) { seen.add($0) }
    }

    func finish() {
        watcher.stop()
        try? FileSystem.removeTree(dir)
    }

    /// Writes `text` to `path` through one descriptor: open, write, close.
    func write(_ path: String, _ text: String, close closing: Bool = true) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        if closing { close(fd) }
        return fd
    }

    @Test func aFileIsReadyWhenItIsClosedAfterWritingNotBefore() {
        defer { finish() }
        let fd = write(dir + "/a.json", "{}", close: false)
        // A marker file closed after the open one: once its event is seen, any event of the
        // open file would have been seen too.
        _ = write(dir + "/marker.json", "{}")
        seen.wait { $0.contains(.fileReady(directory: dir, name: "marker.json")) }
        #expect(!seen.all.contains(.fileReady(directory: dir, name: "a.json")), "reported while still open for writing")
        close(fd)
        let events = seen.wait { $0.contains(.fileReady(directory: dir, name: "a.json")) }
        #expect(events.filter { $0 == .fileReady(directory: dir, name: "a.json") }.count == 1)
    }

    @Test func aFileMovedInIsReadyAndOneMovedOutOrRemovedIsGone() throws {
        defer { finish() }
        let outside = dir + ".outside"
        #expect(mkdir(outside, 0o700) == 0)
        defer { try? FileSystem.removeTree(outside) }
        _ = write(outside + "/export.zip", "PK")
        #expect(rename(outside + "/export.zip", dir + "/export.zip") == 0)
        seen.wait { $0.contains(.fileReady(directory: dir, name: "export.zip")) }
        #expect(rename(dir + "/export.zip", outside + "/export.zip") == 0)
        seen.wait { $0.contains(.fileGone(directory: dir, name: "export.zip")) }
        _ = write(dir + "/b.json", "{}")
        #expect(unlink(dir + "/b.json") == 0)
        let events = seen.wait { $0.contains(.fileGone(directory: dir, name: "b.json")) }
        #expect(events.contains(.fileGone(directory: dir, name: "export.zip")))
        #expect(events.contains(.fileGone(directory: dir, name: "b.json")))
    }

    @Test func aLinkADirectoryAndAFifoAreReportedWhenTheyAppear() {
        defer { finish() }
        #expect(symlink("/etc/passwd", dir + "/planted.json") == 0)
        #expect(mkdir(dir + "/sub", 0o700) == 0)
        #expect(mkfifo(dir + "/pipe.json", 0o600) == 0)
        let names = ["planted.json", "sub", "pipe.json"]
        let events = seen.wait { events in names.allSatisfy { events.contains(.fileReady(directory: dir, name: $0)) } }
        for name in names {
            #expect(events.contains(.fileReady(directory: dir, name: name)), "\(name) reported so the daemon can refuse it")
        }
    }

    @Test func aNameThatIsNotUTF8AsksForAListing() {
        defer { finish() }
        let name: [UInt8] = Array((dir + "/bad-").utf8) + [0xff, 0xfe] + Array(".json".utf8) + [0]
        let fd = name.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600) }
        }
        #expect(fd >= 0)
        close(fd)
        let events = seen.wait { $0.contains(.undecodableName(directory: dir)) }
        #expect(events.contains(.undecodableName(directory: dir)))
        #expect(!events.contains { if case .fileReady = $0 { true } else { false } }, "no name made up from the bytes")
    }

    @Test func aDirectoryThatDoesNotExistIsAnErrorNamingIt() {
        defer { finish() }
        #expect(throws: FileError.self) {
            _ = try SpoolWatcher(directories: [dir + "/missing"], queue: DispatchQueue(label: "x")) { _ in }
        }
    }
}
