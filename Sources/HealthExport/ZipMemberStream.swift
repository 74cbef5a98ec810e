import CZlib
import HealthSpoolCore

/// The decompressed bytes of one zip member, read in chunks straight from the archive:
/// stored members are copied, deflated ones inflated with zlib (raw deflate). The CRC-32 and
/// size are checked at the end. A member that ends early throws `ImportError.truncated`, corrupt
/// data `ImportError.malformed`, both naming the offset in the zip.
final class ZipMemberStream: ByteStream {
    private let source: ByteSource
    private let member: ZipMember
    private let checkCRC: Bool
    /// Next compressed byte to read, and the end of the member's data.
    private var position: Int64
    private let limit: Int64
    private var input: UnsafeMutableRawPointer
    private let inputCapacity = 256 << 10
    private var zstream = z_stream()
    private var inflating = false
    private var finished = false
    private var crc: uLong = 0
    private var produced: Int64 = 0

    init(source: ByteSource, member: ZipMember, checkCRC: Bool = true) throws {
        self.source = source
        self.member = member
        self.checkCRC = checkCRC
        position = member.dataOffset
        limit = member.compressedSize.map { member.dataOffset + $0 } ?? source.size
        input = UnsafeMutableRawPointer.allocate(byteCount: inputCapacity, alignment: 16)
        if member.flags & 0x0001 != 0 {
            input.deallocate()
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: member.localHeaderOffset,
                                        reason: "member '\(member.name)' is encrypted")
        }
        switch member.method {
        case 0: break
        case 8:
            guard hs_inflate_init_raw(&zstream) == Z_OK else {
                input.deallocate()
                throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: member.localHeaderOffset, reason: "zlib failed to start")
            }
            inflating = true
        default:
            input.deallocate()
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: member.localHeaderOffset,
                                        reason: "member '\(member.name)' uses compression method \(member.method); only stored and deflated members are read")
        }
        if member.method == 0, member.compressedSize == nil {
            input.deallocate()
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: member.localHeaderOffset,
                                        reason: "stored member '\(member.name)' has no size (no central directory)")
        }
    }

    deinit {
        if inflating { inflateEnd(&zstream) }
        input.deallocate()
    }

    var sourceBytesRead: Int64 { position - Int64(zstream.avail_in) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        let n = member.method == 0 ? try readStored(into: buffer) : try inflate(into: buffer)
        if n > 0 {
            if checkCRC { crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(n)) }
            produced += Int64(n)
        }
        if finished { try verify() }
        return n
    }

    /// Reads to the end (used to find where a member without sizes stops).
    func drain() throws {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { scratch.deallocate() }
        while try read(into: scratch) > 0 {}
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = Int(min(Int64(buffer.count), limit - position))
        if want == 0 { finished = true; return 0 }
        let n = try source.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        if n == 0 { throw truncated() }
        position += Int64(n)
        if position == limit { finished = true }
        return n
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        zstream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        zstream.avail_out = uInt(buffer.count)
        while zstream.avail_out > 0 {
            if zstream.avail_in == 0 {
                let want = Int(min(Int64(inputCapacity), limit - position))
                let n = want > 0 ? try source.read(at: position, into: UnsafeMutableRawBufferPointer(start: input, count: want)) : 0
                if n == 0 {
                    if zstream.avail_out < uInt(buffer.count) { break }   // hand over what we have first
                    throw truncated()
                }
                position += Int64(n)
                zstream.next_in = input.assumingMemoryBound(to: Bytef.self)
                zstream.avail_in = uInt(n)
            }
            let rc = CZlib.inflate(&zstream, Z_NO_FLUSH)
            if rc == Z_STREAM_END { finished = true; break }
            if rc == Z_BUF_ERROR, zstream.avail_in == 0 { continue }
            guard rc == Z_OK else {
                let message = zstream.msg.map { String(cString: $0) } ?? "zlib error \(rc)"
                throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: sourceBytesRead,
                                            reason: "corrupt compressed data in member '\(member.name)' (\(message)) after \(produced) bytes of it")
            }
        }
        return buffer.count - Int(zstream.avail_out)
    }

    private func truncated() -> ImportError {
        .truncated(format: ZipArchive.format, offset: position,
                   reason: "the zip ends inside member '\(member.name)' after \(produced) bytes of it were read")
    }

    private func verify() throws {
        guard checkCRC else { return }
        if let size = member.uncompressedSize, size != produced {
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: position,
                                        reason: "member '\(member.name)' holds \(produced) bytes, its header says \(size)")
        }
        if !member.hasDataDescriptor || member.compressedSize != nil, uLong(member.crc) != crc {
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: position,
                                        reason: "member '\(member.name)' fails its CRC-32 check (corrupt zip)")
        }
    }
}
