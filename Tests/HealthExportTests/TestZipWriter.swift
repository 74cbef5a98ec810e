import CZlib

/// Writes small zip archives in memory for tests: stored or deflated members, with or without
/// the UTF-8 name flag, data descriptors, zip64 records; hostile ones too (an encryption flag,
/// another method's number over raw bytes, a size header that lies).
struct TestZipWriter {
    struct Member {
        var name: [UInt8]
        var data: [UInt8]
        var deflate = true
        var utf8Flag = true
        var dataDescriptor = false
        /// Sets the "encrypted" flag (bit 0); the data is written as it is.
        var encrypted = false
        /// Another compression method's number (bzip2 12, LZMA 14, …); `data` is written raw.
        var method: UInt16? = nil
        /// The uncompressed size the headers declare, when it should lie.
        var declaredSize: UInt32? = nil
        /// Raw deflate data written as the member's payload (method 8) instead of `data`'s; the
        /// CRC then is `crc`, the size `declaredSize` (large members made with `deflate(chunks:)`).
        var deflated: [UInt8]? = nil
        var crc: UInt32 = 0
    }

    var zip64 = false
    private(set) var bytes: [UInt8] = []
    private var central: [UInt8] = []
    private var count = 0

    mutating func add(_ m: Member) {
        let crc = m.deflated != nil ? m.crc : UInt32(m.data.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
        let payload = m.deflated ?? (m.deflate && m.method == nil ? Self.deflate(m.data) : m.data)
        var flags: UInt16 = m.utf8Flag ? 0x0800 : 0
        if m.dataDescriptor { flags |= 0x0008 }
        if m.encrypted { flags |= 0x0001 }
        let method: UInt16 = m.method ?? (m.deflate ? 8 : 0)
        let declared = m.declaredSize ?? UInt32(truncatingIfNeeded: m.data.count)
        let offset = bytes.count
        var localExtra: [UInt8] = []
        if zip64 { Self.put16(&localExtra, 1); Self.put16(&localExtra, 16); Self.put64(&localExtra, UInt64(m.data.count)); Self.put64(&localExtra, UInt64(payload.count)) }
        Self.put32(&bytes, 0x0403_4B50)
        Self.put16(&bytes, zip64 ? 45 : 20); Self.put16(&bytes, flags); Self.put16(&bytes, method)
        Self.put16(&bytes, 0); Self.put16(&bytes, 0x21)
        if m.dataDescriptor {
            Self.put32(&bytes, 0); Self.put32(&bytes, zip64 ? 0xFFFF_FFFF : 0); Self.put32(&bytes, zip64 ? 0xFFFF_FFFF : 0)
        } else {
            Self.put32(&bytes, crc)
            Self.put32(&bytes, zip64 ? 0xFFFF_FFFF : UInt32(payload.count)); Self.put32(&bytes, zip64 ? 0xFFFF_FFFF : declared)
        }
        Self.put16(&bytes, UInt16(m.name.count)); Self.put16(&bytes, UInt16(localExtra.count))
        bytes += m.name + localExtra + payload
        if m.dataDescriptor {
            Self.put32(&bytes, 0x0807_4B50); Self.put32(&bytes, crc)
            if zip64 { Self.put64(&bytes, UInt64(payload.count)); Self.put64(&bytes, UInt64(m.data.count)) }
            else { Self.put32(&bytes, UInt32(payload.count)); Self.put32(&bytes, declared) }
        }
        var extra: [UInt8] = []
        if zip64 {
            Self.put16(&extra, 1); Self.put16(&extra, 24)
            Self.put64(&extra, UInt64(m.data.count)); Self.put64(&extra, UInt64(payload.count)); Self.put64(&extra, UInt64(offset))
        }
        Self.put32(&central, 0x0201_4B50)
        Self.put16(&central, 0x031E); Self.put16(&central, zip64 ? 45 : 20); Self.put16(&central, flags); Self.put16(&central, method)
        Self.put16(&central, 0); Self.put16(&central, 0x21); Self.put32(&central, crc)
        Self.put32(&central, zip64 ? 0xFFFF_FFFF : UInt32(payload.count)); Self.put32(&central, zip64 ? 0xFFFF_FFFF : declared)
        Self.put16(&central, UInt16(m.name.count)); Self.put16(&central, UInt16(extra.count)); Self.put16(&central, 0)
        Self.put16(&central, 0); Self.put16(&central, 0); Self.put32(&central, 0)
        Self.put32(&central, zip64 ? 0xFFFF_FFFF : UInt32(offset))
        central += m.name + extra
        count += 1
    }

    /// The finished archive.
    func finish() -> [UInt8] {
        var out = bytes
        let cdOffset = out.count
        out += central
        if zip64 {
            let z64 = out.count
            Self.put32(&out, 0x0606_4B50); Self.put64(&out, 44); Self.put16(&out, 45); Self.put16(&out, 45)
            Self.put32(&out, 0); Self.put32(&out, 0)
            Self.put64(&out, UInt64(count)); Self.put64(&out, UInt64(count))
            Self.put64(&out, UInt64(central.count)); Self.put64(&out, UInt64(cdOffset))
            Self.put32(&out, 0x0706_4B50); Self.put32(&out, 0); Self.put64(&out, UInt64(z64)); Self.put32(&out, 1)
        }
        Self.put32(&out, 0x0605_4B50); Self.put16(&out, 0); Self.put16(&out, 0)
        Self.put16(&out, zip64 ? 0xFFFF : UInt16(count)); Self.put16(&out, zip64 ? 0xFFFF : UInt16(count))
        Self.put32(&out, zip64 ? 0xFFFF_FFFF : UInt32(central.count)); Self.put32(&out, zip64 ? 0xFFFF_FFFF : UInt32(cdOffset))
        Self.put16(&out, 0)
        return out
    }

    /// Raw deflate (no zlib header), as zip stores it.
    static func deflate(_ data: [UInt8]) -> [UInt8] {
        var s = z_stream()
        precondition(deflateInit2_(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&s) }
        var input = data
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&s, uLong(data.count))) + 64)
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf in
                s.next_in = inBuf.baseAddress
                s.avail_in = uInt(inBuf.count)
                s.next_out = outBuf.baseAddress
                s.avail_out = uInt(outBuf.count)
                precondition(CZlib.deflate(&s, Z_FINISH) == Z_STREAM_END)
                return outBuf.count - Int(s.avail_out)
            }
        }
        return Array(out[0..<produced])
    }

    /// Raw deflate of the concatenated `chunks` (made one at a time, so a bomb of gigabytes needs
    /// no gigabytes of memory), with their total size and CRC-32.
    static func deflate(chunks count: Int, _ chunk: (Int) -> [UInt8]) -> (payload: [UInt8], size: Int, crc: UInt32) {
        var s = z_stream()
        precondition(deflateInit2_(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&s) }
        var out: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 1 << 20)
        var size = 0
        var crc: uLong = 0
        for k in 0...count {
            var input = k < count ? chunk(k) : []
            size += input.count
            crc = input.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            let flush = k < count ? Z_NO_FLUSH : Z_FINISH
            input.withUnsafeMutableBufferPointer { inBuf in
                s.next_in = inBuf.baseAddress
                s.avail_in = uInt(inBuf.count)
                repeat {
                    let produced: Int = scratch.withUnsafeMutableBufferPointer { outBuf in
                        s.next_out = outBuf.baseAddress
                        s.avail_out = uInt(outBuf.count)
                        _ = CZlib.deflate(&s, flush)
                        return outBuf.count - Int(s.avail_out)
                    }
                    out += scratch[0..<produced]
                } while s.avail_out == 0 || (flush == Z_FINISH && s.avail_in > 0)
            }
        }
        return (out, size, UInt32(crc))
    }

    static func put16(_ b: inout [UInt8], _ v: UInt16) { b.append(UInt8(v & 0xFF)); b.append(UInt8(v >> 8)) }
    static func put32(_ b: inout [UInt8], _ v: UInt32) { put16(&b, UInt16(v & 0xFFFF)); put16(&b, UInt16(v >> 16)) }
    static func put64(_ b: inout [UInt8], _ v: UInt64) { put32(&b, UInt32(v & 0xFFFF_FFFF)); put32(&b, UInt32(v >> 32)) }
}
