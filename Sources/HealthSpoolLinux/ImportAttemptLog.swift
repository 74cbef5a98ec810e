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
        public var identity: FileIdentity
        public var attempts: Int
    }

    /// What tells one file from another under the same name: device and inode, and since a
    /// deleted file's inode can be handed to the next file created, the inode's change time (to
    /// the nanosecond; set when the file is created or written, never copied from elsewhere)
    /// and its size.
    public struct FileIdentity: Sendable, Equatable {
        public var device: UInt64
        public var inode: UInt64
        /// `st_ctim`, in nanoseconds since the epoch.
        public var changedNanos: Int64
        public var size: Int64

        public init(device: UInt64, inode: UInt64, changedNanos: Int64, size: Int64) {
            self.device = device
            self.inode = inode
            self.changedNanos = changedNanos
            self.size = size
        }

        /// The identity of the file at `path` (not following a link), nil when there is none.
        public init?(path: String) {
            var st = stat()
            guard lstat(path, &st) == 0 else { return nil }
            self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino),
                      changedNanos: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec), size: Int64(st.st_size))
        }
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
    /// finished: 0 unless the record names this very file (same name, device, inode, change
    /// time and size).
    public func previousAttempts(file: String, filePath: String) -> Int {
        guard let record = read(), record.file == file, let id = FileIdentity(path: filePath), id == record.identity else { return 0 }
        return record.attempts
    }

    /// Records, durably, that attempt number `attempt` on `file` starts now.
    public func begin(file: String, filePath: String, attempt: Int) throws {
        let id = FileIdentity(path: filePath) ?? FileIdentity(device: 0, inode: 0, changedNanos: 0, size: 0)
        try write(Record(file: file, identity: id, attempts: attempt))
    }

    /// Writes `record` durably in place of the one on disk.
    func write(_ record: Record) throws {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"file\":"); w.string(record.file)
        w.raw(",\"device\":"); w.string(String(record.identity.device))
        w.raw(",\"inode\":"); w.string(String(record.identity.inode))
        w.raw(",\"changedNanos\":"); w.string(String(record.identity.changedNanos))
        w.raw(",\"size\":"); w.string(String(record.identity.size))
        w.raw(",\"attempts\":"); w.number(Int64(record.attempts))
        w.raw("}\n")
        try FileSystem.writeAtomically(path, w.bytes)
    }

    /// Forgets the record: the file left the spool, or stays there for a known reason.
    public func clear() {
        try? FileSystem.remove(path)
        FileSystem.syncDirectory(of: path)
    }

    /// The record on disk, if any. A field missing (a record written before it was kept) reads
    /// as 0, so such a record names no file and its file starts afresh.
    public func read() -> Record? {
        guard let text = try? FileSystem.readText(path), let v = try? JSONParser.parse(text),
              let file = v["file"]?.stringValue, let attempts = v["attempts"]?.intValue else { return nil }
        func number<T: FixedWidthInteger>(_ key: String) -> T { v[key]?.stringValue.flatMap { T($0) } ?? 0 }
        return Record(file: file, identity: FileIdentity(device: number("device"), inode: number("inode"),
                                                         changedNanos: number("changedNanos"), size: number("size")),
                      attempts: attempts)
    }
}
