import HealthSpoolCore
import Testing
@testable import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

/// `ProtectionProbe` reads a prepared tree: proc/self/mountinfo and sys/block/*/{dev,dm/,slaves/}
/// as the kernel lays them out.
@Suite struct ProtectionProbeTests {
    func tree() throws -> String {
        var template = Array("/tmp/hs-protection-XXXXXX".utf8CString)
        let root = String(cString: mkdtemp(&template)!)
        func write(_ path: String, _ text: String) throws {
            try FileSystem.makeDirectory(FileSystem.parent(root + path), mode: 0o700)
            try FileSystem.writeAtomically(root + path, Array(text.utf8), mode: 0o600)
        }
        try write("/proc/self/mountinfo", """
            22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw
            40 22 8:17 / /srv/plain rw,relatime shared:4 - ext4 /dev/sdb1 rw

            """)
        try write("/sys/block/dm-0/dev", "253:0\n")
        try write("/sys/block/dm-0/dm/name", "cryptroot\n")
        try write("/sys/block/dm-0/dm/uuid", "CRYPT-LUKS2-0123-cryptroot\n")
        try FileSystem.makeDirectory(root + "/sys/block/dm-0/slaves/vda3", mode: 0o700)
        try write("/sys/block/dm-1/dev", "253:1\n")
        try write("/sys/block/dm-1/dm/name", "vg-root\n")
        try write("/sys/block/dm-1/dm/uuid", "LVM-xyz\n")
        try FileSystem.makeDirectory(root + "/sys/block/dm-1/slaves/dm-0", mode: 0o700)
        try write("/sys/block/sdb/dev", "8:16\n")
        return root
    }

    @Test func devicesAreReadWithTheirMappingAndSlaves() throws {
        let root = try tree()
        defer { try? FileSystem.removeTree(root) }
        let devices = ProtectionProbe(root: root).blockDevices()
        #expect(devices.first { $0.name == "dm-1" } == .init(name: "dm-1", number: "253:1", mapperName: "vg-root", mapperUUID: "LVM-xyz", slaves: ["dm-0"]))
        #expect(devices.first { $0.name == "dm-0" }?.isCrypt == true)
        #expect(devices.first { $0.name == "sdb" }?.mapperName == nil)
    }

    @Test func placesAreJudgedByTheTreeEvenWhenNotMadeYet() throws {
        let root = try tree()
        defer { try? FileSystem.removeTree(root) }
        let report = ProtectionProbe(root: root + "/").report([("store", "/home/nobody-here/state/healthspool.db"), ("archive/", "/srv/plain/x/archive")])
        #expect(report.places.map(\.protection) == [.dmCrypt(device: "cryptroot"), .notEncrypted])
        #expect(report.lines == ["store: protected (dm-crypt)", "archive/: not encrypted"])
    }

    @Test func anUnencryptedDirectoryHasNoFscryptPolicy() {
        // /tmp here is not fscrypt: the ioctl answers ENODATA or ENOTTY, never success.
        #expect(!ProtectionProbe.hasFscryptPolicy("/tmp"))
        #expect(!ProtectionProbe.hasFscryptPolicy("/no/such/dir"))
    }
}
