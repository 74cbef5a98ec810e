import HealthExport
import HealthSpoolLinux

/// A spool file as the parsers' byte source.
final class FileByteSource: ByteSource {
    let file: ReadOnlyFile
    init(_ file: ReadOnlyFile) { self.file = file }
    var size: Int64 { file.size }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try file.read(at: offset, into: buffer)
    }
}
