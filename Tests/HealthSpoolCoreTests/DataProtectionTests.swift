import HealthSpoolCore
import Testing

@Suite struct DataProtectionTests {
    typealias Mount = DataProtection.Mount
    typealias Device = DataProtection.BlockDevice

    /// A laptop: / on LUKS → LVM (dm-1 on dm-0), /boot plain, /home/a/HealthSpool on a USB disk.
    let mountinfo = """
        22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw
        30 22 8:1 / /boot rw,relatime shared:2 - ext4 /dev/sda1 rw
        31 22 0:25 / /tmp rw,nosuid shared:3 - tmpfs tmpfs rw
        40 22 8:17 / /home/a/Health\\040Spool rw,relatime shared:4 - ext4 /dev/sdb1 rw
        41 22 0:31 / /home/b rw shared:5 - ecryptfs /home/.ecryptfs/b/.Private rw
        42 22 0:40 /@home /home/c rw shared:6 - btrfs /dev/mapper/cryptc rw
        """
    let devices = [
        Device(name: "dm-0", number: "253:0", mapperName: "cryptroot", mapperUUID: "CRYPT-LUKS2-0123456789abcdef-cryptroot", slaves: ["nvme0n1p3"]),
        Device(name: "dm-1", number: "253:1", mapperName: "vg-root", mapperUUID: "LVM-abcdef", slaves: ["dm-0"]),
        Device(name: "dm-2", number: "253:2", mapperName: "cryptc", mapperUUID: "CRYPT-LUKS1-feed-cryptc", slaves: ["sdc1"]),
        Device(name: "sda", number: "8:0"),
        Device(name: "sdb", number: "8:16"),
    ]

    func verdict(_ path: String, fscrypt: Bool = false) -> DataProtection {
        let mounts = DataProtection.mounts(mountinfo: mountinfo)
        return DataProtection.decide(hasFscryptPolicy: fscrypt, mount: DataProtection.mount(of: path, in: mounts), devices: devices)
    }

    @Test func mountinfoIsParsedWithItsEscapes() {
        let mounts = DataProtection.mounts(mountinfo: mountinfo + "\nnot a mountinfo line\n")
        #expect(mounts.count == 6)
        #expect(mounts[3] == Mount(device: "8:17", mountPoint: "/home/a/Health Spool", fsType: "ext4", source: "/dev/sdb1"))
    }

    @Test func theLongestMountPointWins() {
        let mounts = DataProtection.mounts(mountinfo: mountinfo)
        #expect(DataProtection.mount(of: "/home/a/Health Spool/archive", in: mounts)?.device == "8:17")
        #expect(DataProtection.mount(of: "/home/a/Health Spoolx", in: mounts)?.mountPoint == "/")
        #expect(DataProtection.mount(of: "/boot", in: mounts)?.mountPoint == "/boot")
    }

    @Test func aFileSystemOnLVMOnLUKSIsDmCrypt() {
        #expect(verdict("/home/a/.local/state/healthspool/healthspool.db") == .dmCrypt(device: "cryptroot"))
        #expect(verdict("/home/a/.local/state/healthspool/healthspool.db").text == "protected (dm-crypt)")
    }

    @Test func aPlainDiskIsNotEncrypted() {
        #expect(verdict("/home/a/Health Spool/failed") == .notEncrypted)
        #expect(verdict("/boot/x") == .notEncrypted)
        #expect(verdict("/tmp/x") == .notEncrypted)
    }

    @Test func anFscryptPolicyWinsWhateverTheDisk() {
        #expect(verdict("/home/a/Health Spool/archive", fscrypt: true) == .fscrypt)
        #expect(DataProtection.fscrypt.text == "protected (fscrypt, unlocked at login)")
    }

    @Test func ecryptfsAndBtrfsOnLUKSByTheSourceName() {
        #expect(verdict("/home/b/x") == .ecryptfs)
        #expect(verdict("/home/c/.local/state") == .dmCrypt(device: "cryptc"))   // btrfs: 0:40, found by /dev/mapper/cryptc
    }

    @Test func theReportGroupsPlacesAndWarnsWithThePage() {
        let report = ProtectionReport(places: [
            .init(role: "store", path: "/s/db", protection: .dmCrypt(device: "c")),
            .init(role: "WAL", path: "/s/db-wal", protection: .dmCrypt(device: "c")),
            .init(role: "archive/", path: "/h/archive", protection: .notEncrypted),
        ])
        #expect(report.lines == ["store, WAL: protected (dm-crypt)", "archive/: not encrypted"])
        #expect(report.warning?.contains("archive/") == true && report.warning?.contains("healthspool-security(7)") == true)
        #expect(!report.allProtected)
        #expect(ProtectionReport(places: [.init(role: "store", path: "/s", protection: .fscrypt)]).warning == nil)
    }
}
