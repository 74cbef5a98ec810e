import HealthSpoolConfig
import Testing
import HealthSpoolCore
import HealthSpoolLinux
import Logging
@testable import HealthSpoolDaemon
import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The spool's listing (names as bytes, kinds from lstat), the crash-loop record, the
/// temporary/permanent split and the log handler's escaping, on a real temporary directory.
@Suite struct SpoolIntakeTests {
    let dir: String
    let spool: SpoolDirectory

    init() throws {
        var template = Array("/tmp/healthspool-intake-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        spool = SpoolDirectory(path: dir + "/spool")
        try spool.create()
    }

    func write(bytes name: [UInt8], _ text: String) {
        let path = Array((spool.path + "/").utf8) + name + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o600) } }
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    @Test func everyKindOfEntryIsListedAndOnlyRegularFilesAreImportable() throws {
        write(bytes: Array("a.json".utf8), "[]")
        write(bytes: Array("caf".utf8) + [0xE9] + Array(".json".utf8), "[]")
        symlink("/etc/passwd", spool.path + "/link.json")
        mkfifo(spool.path + "/pipe.json", 0o600)
        mkdir(spool.path + "/folder", 0o700)
        write(bytes: Array("x.json.part".utf8), "[]")
        let entries = try spool.entries()
        let kinds = Dictionary(uniqueKeysWithValues: entries.map { ($0.display, $0.kind) })
        #expect(kinds.count == 5, "archive/, failed/ and the partial name are not listed: \(kinds.keys.sorted())")
        #expect(kinds["a.json"] == .regularFile && kinds["caf\\xE9.json"] == .regularFile)
        #expect(kinds["link.json"] == .symbolicLink(target: "/etc/passwd"))
        #expect(kinds["pipe.json"] == .special("FIFO (named pipe)") && kinds["folder"] == .directory)
        #expect(try spool.pendingFiles().sorted() == ["a.json", "caf\\xE9.json"])
        #expect(spool.refusedEntries().count == 3)
        #expect(entries.first { $0.display == "link.json" }?.refusal?.contains("never follows links") == true)
    }

    @Test func aNameThatIsNotUTF8IsRenamedWithItsInvalidBytesAsPercentEscapes() throws {
        write(bytes: Array("caf".utf8) + [0xE9] + Array(".json".utf8), "[1]")
        let entry = try #require(try spool.entries().first)
        #expect(entry.name == nil)
        let name = try spool.renameToUTF8(entry)
        #expect(name == "caf%E9.json")
        #expect(FileSystem.regularFile(spool.path + "/caf%E9.json")?.size == 3)
    }

    @Test func theAttemptRecordCountsStartsOfTheSameFileOnly() throws {
        let log = ImportAttemptLog(stateDir: dir)
        write(bytes: Array("big.json".utf8), "[]")
        let path = spool.path + "/big.json"
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 0)
        try log.begin(file: "big.json", filePath: path, attempt: 1)
        try log.begin(file: "big.json", filePath: path, attempt: 2)
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 2)
        #expect(log.previousAttempts(file: "other.json", filePath: path) == 0)
        // A new file under the same name (another inode: the old one is kept, so its inode
        // cannot be handed out again) starts afresh.
        rename(path, spool.path + "/.old-big.json")
        write(bytes: Array("big.json".utf8), "[]")
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 0)
        log.clear()
        #expect(log.read() == nil)
    }

    @Test func aNewFileReusingTheInodeOfACrashedOneStartsFromZero() throws {
        let log = ImportAttemptLog(stateDir: dir)
        write(bytes: Array("big.json".utf8), "[1,2,3]")
        let path = spool.path + "/big.json"
        try log.begin(file: "big.json", filePath: path, attempt: 2)
        let crashed = try #require(log.read())
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 2)
        // The crashed file deleted and a new one written under its name on its inode: the record
        // names the same name, device and inode, with the old file's change time or size.
        func record(changedNanos: Int64, size: Int64) throws {
            try FileSystem.writeAtomically(log.path, Array("""
                {"file":"big.json","device":"\(crashed.identity.device)","inode":"\(crashed.identity.inode)",\
                "changedNanos":"\(changedNanos)","size":"\(size)","attempts":2}
                """.utf8))
        }
        try record(changedNanos: crashed.identity.changedNanos - 1, size: crashed.identity.size)
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 0)
        try record(changedNanos: crashed.identity.changedNanos, size: crashed.identity.size + 1)
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 0)
        try record(changedNanos: crashed.identity.changedNanos, size: crashed.identity.size)
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 2)
        // For real: the same inode written again with other content is another file.
        let fd = open(path, O_WRONLY | O_TRUNC)
        _ = "[4]".withCString { Glibc.write(fd, $0, 3) }
        close(fd)
        #expect(try #require(ImportAttemptLog.FileIdentity(path: path)).inode == crashed.identity.inode)
        #expect(log.previousAttempts(file: "big.json", filePath: path) == 0)
    }

    @Test func aFileThatCrashedTheImporterTwiceIsSetAsideWithTheReason() throws {
        let store = try SampleStore.connect(to: Configuration(environment: ["HOME": dir, "HEALTHSPOOL_STATE_DIR": dir + "/state"]))
        let importer = ExportImporter(store: store, logger: Logger(label: "test"), clock: { Timestamp(millis: 1_767_261_600_000) })
        let log = ImportAttemptLog(stateDir: dir)
        write(bytes: Array("crasher.json".utf8), #"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"}]"#)
        let path = spool.path + "/crasher.json"
        try log.begin(file: "crasher.json", filePath: path, attempt: 2)
        let (s, moved, error) = SpoolIntake.importGuarded("crasher.json", path: path, importer: importer, settings: Settings(),
                                                    spool: spool, attempts: log, now: RealTimeClock.now)
        #expect(s.outcome == .failed && error == nil && moved == spool.failed + "/crasher.json")
        let reason = try #require(try FileSystem.readText(spool.failed + "/crasher.json.reason"))
        #expect(reason.contains("the importer stopped while reading this file"))
        #expect(log.read() == nil)
        #expect(try store.queuedCounts().isEmpty)
    }

    @Test func fullDisksAndPermissionsAreTemporaryAndBadContentIsNot() {
        #expect(TemporaryCause(FileError("open", "/s/a.json", EACCES))?.short == "permission denied")
        #expect(TemporaryCause(FileError("write", "/s/x", ENOSPC))?.short == "disk full")
        #expect(TemporaryCause(FileError("open", "/s/a.json", ENOENT)) == nil)
        #expect(TemporaryCause(FileError("read", "/s/a.json", EISDIR)) == nil)
    }

    @Test func logLinesEscapeControlCharactersInTheMessageAndTheValues() {
        let line = JournalLogHandler.stderrLine(pid: 1, level: .info, message: "imported a\nb.json",
                                                metadata: ["file": "a\nb.json", "event": "import"])
        #expect(line == "healthspool[1] info: imported a\\nb.json event=import file=a\\nb.json\n")
        let fields = JournalLogHandler.journalFields(level: .error, message: "x\ry", metadata: ["file": "\u{1B}[2J"])
        #expect(fields.allSatisfy { !$0.contains("\n") && !$0.contains("\r") && !$0.contains("\u{1B}") })
        #expect(fields.contains("HEALTHSPOOL_FILE=\\u{1B}[2J"))
    }
}
