#if canImport(Glibc)
import Glibc
#endif

extension FileSystem {
    /// Copies a regular file to a new file `to` (which must not exist) with `mode`, then
    /// fsyncs it; a failed copy leaves nothing behind. Returns the bytes copied.
    @discardableResult
    public static func copyFile(_ from: String, to: String, mode: mode_t = 0o600, limit: Int64 = 1 << 31) throws -> Int64 {
        guard let info = regularFile(from) else { throw FileError("copy (not a regular file)", from, ENOENT) }
        guard info.size <= limit else { throw FileError("copy (larger than \(limit) bytes)", from, EFBIG) }
        let input = open(from, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileError("open", from) }
        defer { close(input) }
        let output = try SafeWrite.createNew(to, mode: mode)
        var ok = false
        defer {
            close(output)
            if !ok { unlink(to) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw FileError("read", from) }
            if n == 0 { break }
            var done = 0
            while done < n {
                let w = buffer.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + done, n - done) }
                if w < 0 { if errno == EINTR { continue }; throw FileError("write", to) }
                done += w
            }
            total += Int64(n)
        }
        guard fsync(output) == 0 else { throw FileError("fsync", to) }
        ok = true
        return total
    }
}
