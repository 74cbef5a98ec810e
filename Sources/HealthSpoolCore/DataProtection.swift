/// Whether a place where healthspool keeps health data is encrypted at rest, and by what: the
/// Linux counterpart of iOS Data Protection is the operating system's (fscrypt, dm-crypt/LUKS,
/// eCryptfs), and healthspool only checks it. Pure: the facts (mountinfo's text, the
/// device-mapper devices, what the fscrypt ioctl said) are read by `ProtectionProbe` in
/// HealthSpoolLinux and passed in.
public enum DataProtection: Sendable, Equatable {
    /// The directory has an fscrypt policy (its key is added at login by pam_fscrypt).
    case fscrypt
    /// The file system sits on a dm-crypt (LUKS) device, directly or under LVM/RAID: `device`
    /// is the crypt mapping's name.
    case dmCrypt(device: String)
    /// The file system is an eCryptfs mount (an encrypted home of old).
    case ecryptfs
    /// Nothing encrypts it.
    case notEncrypted

    /// How `status` and `config check` say it.
    public var text: String {
        switch self {
        case .fscrypt: "protected (fscrypt, unlocked at login)"
        case .dmCrypt: "protected (dm-crypt)"
        case .ecryptfs: "protected (eCryptfs)"
        case .notEncrypted: "not encrypted"
        }
    }

    /// One word for JSON: fscrypt, dm-crypt, ecryptfs, none.
    public var kind: String {
        switch self {
        case .fscrypt: "fscrypt"
        case .dmCrypt: "dm-crypt"
        case .ecryptfs: "ecryptfs"
        case .notEncrypted: "none"
        }
    }

    public var isProtected: Bool { self != .notEncrypted }

    /// The man page that explains the choices.
    public static let manPage = "healthspool-security(7)"

    /// One mount of /proc/self/mountinfo.
    public struct Mount: Sendable, Equatable {
        /// `major:minor` of the device (`0:NN` for btrfs subvolumes, tmpfs, overlay…).
        public var device: String
        public var mountPoint: String
        public var fsType: String
        /// The mount source: `/dev/mapper/root`, `/dev/dm-0`, `tmpfs`, …
        public var source: String

        public init(device: String, mountPoint: String, fsType: String, source: String) {
            self.device = device
            self.mountPoint = mountPoint
            self.fsType = fsType
            self.source = source
        }
    }

    /// One block device of /sys/block: its kernel name (`dm-0`, `sda`), `major:minor`, the
    /// device-mapper name and uuid (`CRYPT-LUKS2-…` for dm-crypt, `LVM-…`) when it is a
    /// mapping, and the kernel names of the devices under it (`slaves/`).
    public struct BlockDevice: Sendable, Equatable {
        public var name: String
        public var number: String
        public var mapperName: String?
        public var mapperUUID: String?
        public var slaves: [String]

        public init(name: String, number: String, mapperName: String? = nil, mapperUUID: String? = nil, slaves: [String] = []) {
            self.name = name
            self.number = number
            self.mapperName = mapperName
            self.mapperUUID = mapperUUID
            self.slaves = slaves
        }

        /// Whether this mapping is a dm-crypt one.
        public var isCrypt: Bool { mapperUUID?.hasPrefix("CRYPT-") == true }
    }

    /// The mounts in mountinfo's text, in its order (a later mount over the same point hides
    /// an earlier one). Octal escapes (`\040` for a space) are decoded; malformed lines skipped.
    public static func mounts(mountinfo text: String) -> [Mount] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            // id parent major:minor root mountpoint options [optional…] - fstype source superoptions
            guard fields.count >= 10, let dash = fields.firstIndex(of: "-"), dash >= 6, dash + 2 < fields.count else { return nil }
            return Mount(device: fields[2], mountPoint: unescape(fields[4]), fsType: fields[dash + 1], source: unescape(fields[dash + 2]))
        }
    }

    /// The mount a path lives on: the last-listed mount whose point is the longest prefix of
    /// `path` (absolute, symbolic links resolved by the caller).
    public static func mount(of path: String, in mounts: [Mount]) -> Mount? {
        var best: Mount?
        for mount in mounts where contains(mount.mountPoint, path) {
            if let b = best, b.mountPoint.count > mount.mountPoint.count { continue }
            best = mount
        }
        return best
    }

    /// The verdict for one place: fscrypt when the directory has a policy; else what its mount
    /// sits on (an eCryptfs mount, or a block device that is, or lies on, a dm-crypt mapping);
    /// else not encrypted.
    public static func decide(hasFscryptPolicy: Bool, mount: Mount?, devices: [BlockDevice]) -> DataProtection {
        if hasFscryptPolicy { return .fscrypt }
        guard let mount else { return .notEncrypted }
        if mount.fsType == "ecryptfs" { return .ecryptfs }
        let start = devices.first { $0.number == mount.device }
            ?? devices.first { device in
                // btrfs and others show an anonymous 0:NN: go by the source's name.
                let source = mount.source
                return source == "/dev/" + device.name || (device.mapperName.map { source == "/dev/mapper/" + $0 } ?? false)
            }
        guard let start else { return .notEncrypted }
        if let crypt = cryptBelow(start, devices: devices, depth: 0) { return .dmCrypt(device: crypt.mapperName ?? crypt.name) }
        return .notEncrypted
    }

    /// The first dm-crypt mapping at or under `device` (LVM on LUKS, RAID on LUKS…).
    static func cryptBelow(_ device: BlockDevice, devices: [BlockDevice], depth: Int) -> BlockDevice? {
        if device.isCrypt { return device }
        guard depth < 8 else { return nil }
        for slave in device.slaves {
            guard let below = devices.first(where: { $0.name == slave }) else { continue }
            if let crypt = cryptBelow(below, devices: devices, depth: depth + 1) { return crypt }
        }
        return nil
    }

    static func contains(_ mountPoint: String, _ path: String) -> Bool {
        if mountPoint == "/" { return path.hasPrefix("/") }
        return path == mountPoint || path.hasPrefix(mountPoint + "/")
    }

    /// mountinfo's `\ooo` escapes decoded.
    static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var bytes: [UInt8] = []
        let raw = Array(field.utf8)
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "\\"), i + 3 < raw.count,
               let value = UInt8(String(decoding: raw[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                bytes.append(value)
                i += 4
            } else {
                bytes.append(raw[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The places where healthspool keeps health data, each with its protection; what `status` and
/// `config check` report.
public struct ProtectionReport: Sendable, Equatable {
    /// One place: what it is ("store", "notes audio", "archive/"…), its path and its verdict.
    public struct Place: Sendable, Equatable {
        public var role: String
        public var path: String
        public var protection: DataProtection
        public init(role: String, path: String, protection: DataProtection) {
            self.role = role
            self.path = path
            self.protection = protection
        }
    }

    public var places: [Place]

    public init(places: [Place]) { self.places = places }

    /// Whether every place is protected.
    public var allProtected: Bool { places.allSatisfy(\.protection.isProtected) }

    /// The places grouped by verdict, in first-seen order: "store, WAL: protected (dm-crypt)".
    public var lines: [String] {
        var order: [DataProtection] = []
        var roles: [DataProtection: [String]] = [:]
        for place in places {
            if roles[place.protection] == nil { order.append(place.protection) }
            roles[place.protection, default: []].append(place.role)
        }
        return order.map { "\(roles[$0]!.joined(separator: ", ")): \($0.text)" }
    }

    /// The warning when something is not encrypted; nil when all is protected.
    public var warning: String? {
        let bare = places.filter { !$0.protection.isProtected }
        guard !bare.isEmpty else { return nil }
        return "health data is not encrypted at rest (\(bare.map(\.role).joined(separator: ", "))): anyone who gets the disk can read it; see \(DataProtection.manPage) for fscrypt or LUKS"
    }
}

extension DataProtection: Hashable {}
