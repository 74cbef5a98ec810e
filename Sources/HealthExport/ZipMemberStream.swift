import CZlib
import HealthSpoolCore

/// The decompressed bytes of one zip member, read in chunks straight from the archive:
/// stored members are copied, deflated ones inflated with zlib (raw deflate). The CRC-32 and
/// size are checked at the end. A member that ends early throws `ImportError.truncated`, corrupt
/// data `ImportError.malformed`, both naming the offset in the zip.
///
/// Members healthspool cannot read (encrypted, or compressed with anything but stored/deflate)
/// are refused before anything is allocated (`refusal(for:)`). Inflation is bounded as it goes
/// (see `maxRatio`, `ratioFloor`): a member that inflates past the size its header declares, or
/// far past what real exports do, stops at once with `ImportError.refused`.
final class ZipMemberStream: ByteStream {
    /// A member may produce at most this many bytes per compressed byte read so far…
    static let maxRatio: Int64 = 200
    /// …once it has produced this many (the ratio alone would stop a small, very repetitive
    /// member early). Real Apple exports inflate 15–30×; deflate's own maximum is ~1032×.
    static let ratioFloor: Int64 = 32 << 20

    private let source: ByteSource
    private let member: ZipMember
    private let checkCRC: Bool
    /// Next compressed byte to read, and the end of the member's data.
    private var position: Int64
    private let limit: Int64
    private static let inputCapacity = 256 << 10
    /// Nil for a stored member.
    private let inflater: RawInflater?
    private var finished = false
    private var crc: uLong = 0
    private var produced: Int64 = 0
    /// Corrupt data found by a read that still handed over the bytes decoded before it: thrown
    /// by the next read, so the bytes and the error do not depend on the read sizes.
    private var pendingError: Error?

    init(source: ByteSource, member: ZipMember, checkCRC: Bool = true) throws {
        if let reason = Self.refusal(for: member) {
            throw ImportError.refused(format: ZipArchive.format, offset: member.localHeaderOffset, reason: reason)
        }
        if member.method == 0, member.compressedSize == nil {
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: member.localHeaderOffset,
                                        reason: "stored member '\(member.name)' has no size (no central directory)")
        }
        if member.method == 8 {
            do { inflater = try RawInflater(inputCapacity: Self.inputCapacity) } catch {
                throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: member.localHeaderOffset, reason: "zlib failed to start (\(error))")
            }
        } else {
            inflater = nil
        }
        self.source = source
        self.member = member
        self.checkCRC = checkCRC
        position = member.dataOffset
        let (end, overflow) = member.dataOffset.addingReportingOverflow(member.compressedSize ?? source.size)
        limit = member.compressedSize == nil || overflow ? source.size : min(end, source.size)
    }

    /// Why `member` cannot be read (it is encrypted, or compressed with a method other than
    /// stored or deflate), with what the user can do; nil when it can.
    static func refusal(for member: ZipMember) -> String? {
        let advice = "healthspool reads stored and deflated members only: export again from the Health app"
            + " (its zips are plain deflate), re-zip without encryption, or unpack the zip and drop export.xml into the spool"
        if member.method == 99 {
            return "member '\(member.name)' is AES-encrypted (method 99); \(advice)"
        }
        if member.flags & 0x0001 != 0 {
            return "member '\(member.name)' is encrypted (password-protected zip); \(advice)"
        }
        switch member.method {
        case 0, 8: return nil
        default: return "member '\(member.name)' is compressed with \(methodName(member.method)); \(advice)"
        }
    }

    /// A compression method's usual name and number, as zip tools print it.
    static func methodName(_ method: UInt16) -> String {
        let names: [UInt16: String] = [1: "Shrink", 6: "Implode", 9: "Deflate64", 12: "bzip2", 14: "LZMA", 93: "Zstandard",
                                       95: "XZ", 96: "JPEG", 97: "WavPack", 98: "PPMd"]
        return names[method].map { "\($0) (method \(method))" } ?? "compression method \(method)"
    }

    var sourceBytesRead: Int64 { position - Int64(inflater?.stream.pointee.avail_in ?? 0) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let pendingError { throw pendingError }
        guard !finished, buffer.count > 0 else { return 0 }
        let n: Int
        if let inflater { n = try inflate(inflater, into: buffer) } else { n = try readStored(into: buffer) }
        if n > 0 {
            if checkCRC { crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(n)) }
            produced += Int64(n)
            try checkInflation()
        }
        if finished {
            // A failed check after bytes of this read: they are handed over first, as a shorter read would have.
            do { try verify() } catch where n > 0 { pendingError = error }
        }
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
        if want <= 0 { finished = true; return 0 }
        let n = try source.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        if n == 0 { throw truncated() }
        position += Int64(n)
        if position == limit { finished = true }
        return n
    }

    private func inflate(_ inflater: RawInflater, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let z = inflater.stream
        // Never past the declared size; once there, one byte more is asked for, which only the
        // end of the stream may refuse: a byte more proves the header lies (`checkInflation`).
        var room = min(buffer.count, Int(UInt32.max))
        if let declared = member.uncompressedSize { room = Int(min(Int64(room), max(1, declared - produced))) }
        z.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        z.pointee.avail_out = uInt(room)
        while z.pointee.avail_out > 0 {
            // At the end of the source zlib may still hold output decoded from what it read (a
            // match cut short by a full buffer): it is handed over before the member is called
            // truncated, so the bytes and the error never depend on the read sizes.
            var sourceEnded = false
            if z.pointee.avail_in == 0 {
                let want = Int(min(Int64(inflater.input.count), limit - position))
                let n = want > 0 ? try source.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: inflater.input[0..<want])) : 0
                if n == 0 {
                    sourceEnded = true
                } else {
                    position += Int64(n)
                    z.pointee.next_in = inflater.input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    z.pointee.avail_in = uInt(n)
                }
            }
            let before = z.pointee.avail_out
            let rc = CZlib.inflate(z, Z_NO_FLUSH)
            if rc == Z_STREAM_END { finished = true; break }
            if sourceEnded, rc == Z_OK || rc == Z_BUF_ERROR, z.pointee.avail_out == before {
                if z.pointee.avail_out < uInt(room) { break }   // hand over what we have first
                throw truncated()
            }
            if rc == Z_BUF_ERROR, z.pointee.avail_in == 0 { continue }
            guard rc == Z_OK else {
                let message = z.pointee.msg.map { String(cString: $0) } ?? "zlib error \(rc)"
                let made = room - Int(z.pointee.avail_out)
                let error = ImportError.malformed(format: ZipArchive.format, line: nil, offset: sourceBytesRead,
                                                  reason: "corrupt compressed data in member '\(member.name)' (\(message)) after \(produced + Int64(made)) bytes of it")
                if made > 0 { pendingError = error; break }   // hand over what we have first
                throw error
            }
        }
        return room - Int(z.pointee.avail_out)
    }

    /// Stops a member that inflates past its declared size, or past `maxRatio` times the
    /// compressed bytes read so far once beyond `ratioFloor`: a decompression bomb or a lying
    /// header, found after reading little of it. The error names the member's local header: how
    /// far zlib had read into its input depends on the read sizes.
    private func checkInflation() throws {
        guard inflater != nil else { return }
        if let declared = member.uncompressedSize, produced > declared {
            throw ImportError.refused(format: ZipArchive.format, offset: member.localHeaderOffset,
                                      reason: "member '\(member.name)' inflates to more than the \(declared) bytes its header declares"
                                          + " (a corrupt or hostile zip); stopped after \(produced) bytes of it")
        }
        let compressed = max(1, sourceBytesRead - member.dataOffset)
        if produced > Self.ratioFloor, produced > Self.maxRatio * compressed {
            throw ImportError.refused(format: ZipArchive.format, offset: member.localHeaderOffset,
                                      reason: "member '\(member.name)' inflates more than \(Self.maxRatio)× its compressed size"
                                          + " (\(produced) bytes from \(compressed)); real exports stay below 40×, so this is a"
                                          + " decompression bomb or a corrupt zip; stopped after \(produced) bytes of it")
        }
    }

    private func truncated() -> ImportError {
        .truncated(format: ZipArchive.format, offset: position,
                   reason: "the zip ends inside member '\(member.name)' after \(produced) bytes of it were read")
    }

    private func verify() throws {
        guard checkCRC else { return }
        if let size = member.uncompressedSize, size != produced {
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: sourceBytesRead,
                                        reason: "member '\(member.name)' holds \(produced) bytes, its header says \(size)")
        }
        if !member.hasDataDescriptor || member.compressedSize != nil, uLong(member.crc) != crc {
            throw ImportError.malformed(format: ZipArchive.format, line: nil, offset: sourceBytesRead,
                                        reason: "member '\(member.name)' fails its CRC-32 check (corrupt zip)")
        }
    }
}
