import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads what `DataProtection` decides on: `/proc/self/mountinfo`, the block devices of
/// `/sys/block` (their `dev`, `dm/name`, `dm/uuid` and `slaves/`), and the fscrypt policy of a
/// directory (`FS_IOC_GET_ENCRYPTION_POLICY_EX`). `root` prefixes the first two, so that a test
/// can prepare a tree of its own; the ioctl always asks the real path.
public struct ProtectionProbe: Sendable {
    /// Where `proc/` and `sys/` are read from ("/" on a running system).
    public let root: String

    public init(root: String = "/") { self.root = root.hasSuffix("/") ? String(root.dropLast()) : root }

    /// The verdict for each place: (role, path).
    public func report(_ places: [(role: String, path: String)]) -> ProtectionReport {
        let mounts = DataProtection.mounts(mountinfo: (try? FileSystem.readText(root + "/proc/self/mountinfo") ?? "") ?? "")
        let devices = blockDevices()
        return ProtectionReport(places: places.map { place in
            let (existing, full) = Self.resolve(place.path)
            let protection = DataProtection.decide(hasFscryptPolicy: Self.hasFscryptPolicy(existing),
                                                   mount: DataProtection.mount(of: full, in: mounts), devices: devices)
            return .init(role: place.role, path: place.path, protection: protection)
        })
    }

    /// The block devices of `sys/block`.
    public func blockDevices() -> [DataProtection.BlockDevice] {
        let dir = root + "/sys/block"
        return ((try? FileSystem.list(dir)) ?? []).map { name in
            func text(_ file: String) -> String? {
                (try? FileSystem.readText(dir + "/" + name + "/" + file))?.map { $0.trimmingSpaces }.flatMap { $0.isEmpty ? nil : $0 }
            }
            return DataProtection.BlockDevice(name: name, number: text("dev") ?? "", mapperName: text("dm/name"), mapperUUID: text("dm/uuid"),
                                              slaves: (try? FileSystem.list(dir + "/" + name + "/slaves")) ?? [])
        }
    }

    /// The nearest existing ancestor of `path` (itself when it exists) with symbolic links
    /// resolved — a directory not made yet inherits its parent's fscrypt policy — and the whole
    /// path below that resolved ancestor, to find its mount.
    static func resolve(_ path: String) -> (existing: String, full: String) {
        var candidate = path
        var rest = ""
        while true {
            if let resolved = realpath(candidate, nil) {
                defer { free(resolved) }
                let existing = String(cString: resolved)
                return (existing, existing == "/" ? "/" + rest : existing + (rest.isEmpty ? "" : "/" + rest))
            }
            let parent = FileSystem.parent(candidate)
            if parent == candidate || parent.isEmpty { return ("/", path) }
            let name = FileSystem.baseName(candidate)
            rest = rest.isEmpty ? name : name + "/" + rest
            candidate = parent
        }
    }

    /// `_IOWR('f', 22, __u8[9])`.
    static let getEncryptionPolicyEx: UInt = (3 << 30) | (9 << 16) | (UInt(UInt8(ascii: "f")) << 8) | 22

    /// Whether the directory (or the directory of a file) has an fscrypt policy. A file system
    /// without encryption support answers ENOTTY/EOPNOTSUPP; an unencrypted directory ENODATA.
    /// A file's policy is its directory's (a file cannot be moved or linked across policies), and
    /// the directory is what is opened: a descriptor of the file closed here would drop the POSIX
    /// locks this process holds on it — SQLite's, when the file is the store.
    public static func hasFscryptPolicy(_ path: String) -> Bool {
        var st = stat()
        let directory = stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR ? FileSystem.parent(path) : path
        let fd = open(directory, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_DIRECTORY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // struct fscrypt_get_policy_ex_arg { __u64 policy_size; union { __u8 version; … } policy; }
        var buffer = [UInt64](repeating: 0, count: 1 + 8)
        buffer[0] = 64
        let rc = buffer.withUnsafeMutableBytes { ioctl(fd, getEncryptionPolicyEx, $0.baseAddress!) }
        return rc == 0
    }
}
