#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore

/// What an entry directly in the spool is, from `lstat`: a symbolic link is never followed.
public enum SpoolEntryKind: Sendable, Equatable {
    case regularFile
    case directory
    case symbolicLink(target: String)
    /// A FIFO, socket or device node, named.
    case special(String)
}

/// One entry of the spool as the kernel names it: bytes, which need not be UTF-8.
public struct SpoolEntry: Sendable, Equatable {
    /// The name's bytes.
    public let bytes: [UInt8]
    public let kind: SpoolEntryKind
    /// Modification time in nanoseconds (the import order).
    public let modified: Int64

    /// The name, when it is valid UTF-8 (the only names the rest of healthspool handles).
    public var name: String? { EscapedText.isValidUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil }
    /// The name for people and logs: control characters and invalid bytes escaped.
    public var display: String { EscapedText.escape(bytes: bytes) }
    /// Whether the spool could import this entry (a regular file).
    public var isImportable: Bool { kind == .regularFile }

    /// Why an entry that is not a regular file is refused, and what to do instead.
    public var refusal: String? {
        switch kind {
        case .regularFile:
            return nil
        case .directory:
            return "refused: \(display) is a directory; healthspool reads only files directly in the spool — move the export files out of it into the spool (the directory is left where it is)"
        case let .symbolicLink(target):
            return "refused: \(display) is a symbolic link (to \(EscapedText.escape(target))); healthspool never follows links in the spool — copy or move the file itself in"
        case let .special(what):
            return "refused: \(display) is a \(what), not a regular file; write the export to a regular file and move that into the spool"
        }
    }
}

extension SpoolDirectory {
    /// Names the spool keeps for itself.
    static let ownFolders: Set<[UInt8]> = [Array("archive".utf8), Array("failed".utf8)]

    /// Whether a name given as bytes is eligible (the rule of `isEligible(_:)`; the rule looks
    /// only at ASCII prefixes and suffixes, so an invalid byte elsewhere does not matter).
    public static func isEligible(bytes: [UInt8]) -> Bool {
        isEligible(String(decoding: bytes, as: UTF8.self))
    }

    /// Every eligible entry directly in the spool (not archive/ and failed/), whatever its
    /// kind, oldest first (by modification time, then name).
    public func entries() throws -> [SpoolEntry] {
        try Self.entries(of: path).filter {
            Self.isEligible(bytes: $0.bytes) && !($0.kind == .directory && Self.ownFolders.contains($0.bytes))
        }
    }

    /// Eligible regular files waiting in the spool, oldest first (by modification time, then
    /// name), so overlapping exports are applied in the order they were written. A name that
    /// is not UTF-8 is listed escaped (the daemon renames it before importing it).
    public func pendingFiles() throws -> [String] {
        try entries().filter(\.isImportable).map { $0.name ?? $0.display }
    }

    /// Entries that will never be imported as they are: what is in the spool and is not a
    /// regular file (left there: directories), plus what was refused and moved to failed/.
    public func refusedEntries() -> [SpoolEntry] {
        let here = ((try? entries()) ?? []).filter { !$0.isImportable }
        let moved = ((try? Self.entries(of: failed)) ?? []).filter { !$0.isImportable }
        return here + moved
    }

    /// Renames an entry whose name is not valid UTF-8 to a UTF-8 name in the spool (each
    /// invalid byte written as `%XX`) and returns the new name. The rename is durable.
    public func renameToUTF8(_ entry: SpoolEntry) throws -> String {
        if let name = entry.name { return name }
        let base = Self.utf8Name(for: entry.bytes)
        var candidate = base
        var n = 1
        while FileSystem.exists(path + "/" + candidate) { candidate = "\(n)-" + base; n += 1 }
        let from = Array(path.utf8) + [UInt8(ascii: "/")] + entry.bytes + [0]
        let to = path + "/" + candidate
        let rc = from.withUnsafeBufferPointer { f in
            f.withMemoryRebound(to: CChar.self) { rename($0.baseAddress!, to) }
        }
        guard rc == 0 else { throw FileError("rename", path + "/" + entry.display) }
        FileSystem.syncDirectory(of: to)
        return candidate
    }

    /// A UTF-8 name for raw name bytes: valid sequences kept, each other byte as `%XX`.
    public static func utf8Name(for bytes: [UInt8]) -> String {
        var out = ""
        EscapedText.decode(bytes, scalar: { out.unicodeScalars.append($0) }, invalid: { out += "%" + EscapedText.hex($0) })
        return out
    }

    /// Every entry of `dir` with its kind (no `.`/`..`), names as bytes.
    static func entries(of dir: String) throws -> [SpoolEntry] {
        guard let d = opendir(dir) else { throw FileError("opendir", dir) }
        defer { closedir(d) }
        let fd = dirfd(d)
        var out: [SpoolEntry] = []
        while let e = readdir(d) {
            let bytes = withUnsafePointer(to: e.pointee.d_name) {
                $0.withMemoryRebound(to: UInt8.self, capacity: 256) { Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)))) }
            }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            var st = stat()
            let ok = (bytes + [0]).withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { fstatat(fd, $0.baseAddress!, &st, AT_SYMLINK_NOFOLLOW) == 0 }
            }
            guard ok else { continue }
            out.append(SpoolEntry(bytes: bytes, kind: kind(st, fd: fd, name: bytes),
                                  modified: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)))
        }
        return out.sorted { $0.modified != $1.modified ? $0.modified < $1.modified : $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    static func kind(_ st: stat, fd: Int32, name: [UInt8]) -> SpoolEntryKind {
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFLNK:
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = (name + [0]).withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { p in
                    buf.withUnsafeMutableBytes { readlinkat(fd, p.baseAddress!, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
                }
            }
            return .symbolicLink(target: n > 0 ? EscapedText.escape(bytes: buf[0..<n]) : "?")
        case S_IFIFO: return .special("FIFO (named pipe)")
        case S_IFSOCK: return .special("socket")
        case S_IFCHR: return .special("character device")
        case S_IFBLK: return .special("block device")
        default: return .special("special file")
        }
    }
}

extension SpoolDirectory {
    /// The entry `name` directly in the spool, from `lstat`; nil when it is gone, or is one of
    /// the spool's own folders.
    public func entry(named name: String) -> SpoolEntry? {
        let bytes = Array(name.utf8)
        var st = stat()
        guard lstat(path + "/" + name, &st) == 0 else { return nil }
        let dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if dfd >= 0 { close(dfd) } }
        let kind = Self.kind(st, fd: dfd, name: bytes)
        if kind == .directory, Self.ownFolders.contains(bytes) { return nil }
        return SpoolEntry(bytes: bytes, kind: kind, modified: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }
}
