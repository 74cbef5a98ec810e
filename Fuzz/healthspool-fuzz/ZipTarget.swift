@testable import HealthExport
import HealthSpoolCore

/// The zip container and member stream: finding the export member (central directory, zip64,
/// or local headers when the directory is missing) and inflating it. Properties: the same member
/// and bytes (or the same error) whether the archive is read in whole reads or short ones and the
/// member in any read sizes. The comparison with Python's zipfile runs over the corpus
/// (`Fuzz/zip-crosscheck.py`, through `dump-zip`).
enum ZipTarget {
    static let target = FuzzTarget(name: "zip", summary: "zip container and member stream (chunked reads)") { data in
        let bytes = Array(data)
        let chunking = Chunking(for: data)
        let whole = ZipOutcome(MemoryByteSource(bytes), reads: nil)
        let chunked = ZipOutcome(ChunkedSource(bytes, chunking: chunking), reads: chunking)
        if whole != chunked { propertyFailed("zip: whole reads gave \(whole), short reads \(chunked)") }
    }
}

/// What the zip reader made of an archive: the member it picked and a digest of its bytes, or an error.
struct ZipOutcome: Equatable, CustomStringConvertible {
    var member: String?
    var offset: Int64?
    var size: Int64 = 0
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var error: String?

    /// Reads the export member of `source` to its end, in sizes picked by `reads` (whole buffers when nil).
    init(_ source: ByteSource, reads: Chunking?, keep: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        var reads = reads
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        do {
            let m = try ZipArchive.findHealthExport(in: source)
            member = m.name
            offset = m.localHeaderOffset
            let stream = try ZipMemberStream(source: source, member: m)
            while true {
                let want = min(buffer.count, reads?.next() ?? buffer.count)
                let n = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
                if n == 0 { break }
                let got = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                for b in got { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
                keep?(got)
                size += Int64(n)
            }
        } catch {
            self.error = "\(error)"
        }
    }

    var description: String {
        error.map { "error: \($0)" } ?? "member '\(member ?? "")' at \(offset ?? -1), \(size) bytes, hash \(hash)"
    }
}
