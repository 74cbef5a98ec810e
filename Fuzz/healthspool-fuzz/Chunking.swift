@testable import HealthExport

/// Read sizes for the streaming parsers, chosen from the input itself (so a crash reproduces from
/// the input alone): one byte at a time, small, medium or large random reads. Each target parses
/// an input whole and chunked and requires the same outcome.
struct Chunking {
    private var state: UInt64
    private let largest: Int

    init(seed: UInt64) {
        state = seed
        largest = [1, 16, 4096, 65536][Int(seed >> 60) & 3]
    }

    /// The chunking for `bytes` (FNV-1a of the input).
    init(for bytes: UnsafeRawBufferPointer) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        self.init(seed: h)
    }

    /// The size of the next read (splitmix64).
    mutating func next() -> Int {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        z ^= z >> 31
        return 1 + Int(z % UInt64(largest))
    }
}

/// Memory read as a `ByteStream`, whole or in the sizes a `Chunking` picks.
final class ChunkedStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    private var chunking: Chunking?

    init(_ bytes: [UInt8], chunking: Chunking?) {
        self.bytes = bytes
        self.chunking = chunking
    }

    var sourceBytesRead: Int64 { Int64(offset) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var n = min(buffer.count, bytes.count - offset)
        if let c = chunking?.next() { n = min(n, c) }
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}

/// Memory as a `ByteSource` whose reads return fewer bytes than asked, as a `Chunking` picks
/// (a file system may do that; the zip reader must not care).
final class ChunkedSource: ByteSource {
    private let bytes: [UInt8]
    private var chunking: Chunking

    init(_ bytes: [UInt8], chunking: Chunking) {
        self.bytes = bytes
        self.chunking = chunking
    }

    var size: Int64 { Int64(bytes.count) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset >= 0, offset < size else { return 0 }
        let n = min(buffer.count, bytes.count - Int(offset), chunking.next())
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n) }
        return n
    }
}
