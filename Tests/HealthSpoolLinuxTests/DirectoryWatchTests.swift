#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HealthSpoolLinux

/// The watcher as a sequence, on real inotify in a temporary directory: its events arrive in
/// the stream, and however it ends (stopped, its consumer cancelled, stopped again) the inotify
/// descriptor is closed exactly once: a descriptor that reuses the number afterwards stays open.
/// Other suites open and close files meanwhile, so "closed" is read as "the number no longer
/// names an inotify instance watching this test's directory" (`/proc/self/fdinfo`).
@Suite struct DirectoryWatchTests {
    let dir: String

    init() throws {
        var template = Array("/tmp/hs-dirwatch-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FileError("mkdtemp", "/tmp") }
        dir = String(cString: made)
    }

    func finish() { try? FileSystem.removeTree(dir) }

    /// Whether `fd` is an open descriptor.
    func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

    /// Whether `fd` is an inotify instance watching this test's directory (its inode in the
    /// descriptor's fdinfo).
    func watchesDir(_ fd: Int32) -> Bool {
        var st = stat()
        guard stat(dir, &st) == 0, let info = try? FileSystem.readText("/proc/self/fdinfo/\(fd)") else { return false }
        return info.contains("inotify wd:") && info.contains(" ino:\(String(st.st_ino, radix: 16)) ")
    }

    /// Waits (up to 10 s) until `fd` no longer watches the directory.
    func waitClosed(_ fd: Int32) -> Bool {
        for _ in 0..<1000 where watchesDir(fd) { usleep(10_000) }
        return !watchesDir(fd)
    }

    /// A new descriptor on a file of the directory, numbered `fd` when that number is free (the
    /// lowest free number at or above it: other tests running meanwhile may have taken it).
    func reuse(_ fd: Int32) -> Int32 {
        let file = open(dir + "/reused.json", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        let reused = fcntl(file, F_DUPFD_CLOEXEC, fd)
        close(file)
        return reused
    }

    @Test func aFileWrittenIsInTheStreamAndTheStreamEndsAtStop() async throws {
        defer { finish() }
        let watch = try DirectoryWatch(directories: [dir], label: "dirwatch-test")
        let fd = open(dir + "/a.json", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        close(fd)
        var seen: [WatchEvent] = []
        for await event in watch.events {
            seen.append(event)
            if event == .fileReady(directory: dir, name: "a.json") { watch.stop() }
        }
        #expect(seen.contains(.fileReady(directory: dir, name: "a.json")))
        #expect(!watchesDir(watch.descriptor), "the stream ended before the descriptor was closed")
    }

    @Test func stoppingTwiceClosesTheDescriptorOnce() throws {
        defer { finish() }
        let watch = try DirectoryWatch(directories: [dir], label: "dirwatch-test")
        let fd = watch.descriptor
        #expect(watchesDir(fd))
        watch.stop()
        #expect(waitClosed(fd))
        let reused = reuse(fd)
        defer { close(reused) }
        watch.stop()
        usleep(100_000)
        #expect(isOpen(reused), "a second stop closed a descriptor the watcher no longer owned")
    }

    @Test func cancellingTheConsumerClosesTheDescriptorOnce() async throws {
        defer { finish() }
        let watch = try DirectoryWatch(directories: [dir], label: "dirwatch-test")
        let fd = watch.descriptor
        let consumer = Task { for await _ in watch.events {} }
        consumer.cancel()
        await consumer.value
        #expect(waitClosed(fd))
        let reused = reuse(fd)
        defer { close(reused) }
        watch.stop()
        usleep(100_000)
        #expect(isOpen(reused), "stopping after the stream ended closed another file's descriptor")
    }
}
