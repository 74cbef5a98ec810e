import HealthSpoolCore

/// A forward-only stream of bytes: a bare file read in order, or a zip member being inflated.
protocol ByteStream: AnyObject {
    /// Fills up to `buffer.count` bytes; returns 0 at the end. Throws `ImportError` when the
    /// input ends early or is corrupt.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes of the underlying file consumed so far (compressed bytes for a zip member).
    var sourceBytesRead: Int64 { get }
}

/// Reads a `ByteSource` from `start` to `end` in order.
final class SourceByteStream: ByteStream {
    private let source: ByteSource
    private var offset: Int64
    private let end: Int64

    init(_ source: ByteSource, start: Int64 = 0, end: Int64? = nil) {
        self.source = source
        self.offset = start
        self.end = end ?? source.size
    }

    var sourceBytesRead: Int64 { offset }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = Int(min(Int64(buffer.count), end - offset))
        guard want > 0 else { return 0 }
        let n = try source.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        offset += Int64(n)
        return n
    }
}
