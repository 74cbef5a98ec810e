#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore

/// The crash-loop safety net of the spool: before an import starts, "importing <name> (attempt
/// n)" is written durably (fsynced) to a small file in the state directory, and removed once
/// the file has left the spool. A file whose import was started `limit` times by processes that
/// died before finishing it is set aside instead of imported again, so no single file can hold
/// the spool hostage.
public struct ImportAttemptLog: Sendable {
    /// Started imports of one file.
    public struct Record: Sendable, Equatable {
        public var file: String
        /// Device and inode: a new file under the same name starts afresh.
        public var device: UInt64
        public var inode: UInt64
        public var attempts: Int
    }

    /// The record file (`<state dir>/importing.json`).
    public let path: String
    /// Started attempts after which a file is set aside.
    public let limit: Int

    public init(stateDir: String, limit: Int = 2) {
        path = stateDir + "/importing.json"
        self.limit = limit
    }

    /// The reason a file set aside by the safety net carries.
    public static func reason(attempts: Int) -> String {
        "the importer stopped while reading this file (\(attempts) attempts, each ended by the daemon dying before it finished); it was set aside so the files behind it can be imported. Import it by hand to see what happens (healthspool import FILE) and report the crash with the file if you can"
    }

    /// Attempts already started on the file at `filePath` (spool name `file`) that never
    /// finished: 0 unless the record names this very file.
    public func previousAttempts(file: String, filePath: String) -> Int {
        guard let record = read(), record.file == file, let id = Self.identity(filePath),
              id.device == record.device, id.inode == record.inode else { return 0 }
        return record.attempts
    }

    /// Records, durably, that attempt number `attempt` on `file` starts now.
    public func begin(file: String, filePath: String, attempt: Int) throws {
        let id = Self.identity(filePath) ?? (0, 0)
        var w = JSONWriter(capacity: 256)
        w.raw("{\"file\":"); w.string(file)
        w.raw(",\"device\":"); w.string(String(id.device))
        w.raw(",\"inode\":"); w.string(String(id.inode))
        w.raw(",\"attempts\":"); w.number(Int64(attempt))
        w.raw("}\n")
        try FileSystem.writeAtomically(path, w.bytes)
    }

    /// Forgets the record: the file left the spool, or stays there for a known reason.
    public func clear() {
        try? FileSystem.remove(path)
        FileSystem.syncDirectory(of: path)
    }

    /// The record on disk, if any.
    public func read() -> Record? {
        guard let text = try? FileSystem.readText(path), let v = try? JSONParser.parse(text),
              let file = v["file"]?.stringValue, let attempts = v["attempts"]?.intValue else { return nil }
        return Record(file: file, device: v["device"]?.stringValue.flatMap { UInt64($0) } ?? 0,
                      inode: v["inode"]?.stringValue.flatMap { UInt64($0) } ?? 0, attempts: attempts)
    }

    static func identity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }
}
