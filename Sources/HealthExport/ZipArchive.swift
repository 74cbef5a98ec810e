import HealthSpoolCore

/// One member of a zip archive, as its headers describe it.
struct ZipMember {
    /// The name as stored, decoded for messages (UTF-8, with replacement characters for names
    /// in a legacy code page).
    var name: String
    var method: UInt16
    var flags: UInt16
    var crc: UInt32
    /// Nil when unknown (a local header with a data descriptor, no central directory).
    var compressedSize: Int64?
    var uncompressedSize: Int64?
    var localHeaderOffset: Int64
    /// Where the member's data starts (after its local header).
    var dataOffset: Int64 = 0

    var isDirectory: Bool { name.hasSuffix("/") }
    var hasDataDescriptor: Bool { flags & 0x0008 != 0 }
}

/// Reads a zip's structure through a `ByteSource`: the end-of-central-directory record
/// (zip64 too), the central directory, local headers. Finds the Apple Health export.xml by
/// content, whatever its (localized) name.
enum ZipArchive {
    static let format = "Apple Health zip"

    /// The member holding the export XML: the first whose first bytes hold `<HealthData` (or
    /// its DOCTYPE). Members under `workout-routes/` and `electrocardiograms/` are skipped, and
    /// `.xml` names are tried first. When the central directory is missing (a truncated zip),
    /// the local headers are walked from the start instead. When no readable member holds the
    /// export but one could not be read (encrypted, bzip2, …), that member is refused by name.
    static func findHealthExport(in source: ByteSource) throws -> ZipMember {
        let members: [ZipMember]
        do {
            members = try centralDirectory(source)
        } catch CentralDirectoryError.missing {
            return try walkLocalHeaders(source)
        }
        let candidates = members.filter(isCandidate).sorted { rank($0) < rank($1) }
        var unreadable: [String] = []
        for var m in candidates {
            if let reason = ZipMemberStream.refusal(for: m) { unreadable.append(reason); continue }
            m.dataOffset = try dataOffset(source, m)
            if try looksLikeHealthExport(source, m) { return m }
        }
        // The export may be the member that cannot be read: say why, rather than "no export".
        if let first = unreadable.first {
            throw ImportError.refused(format: format, offset: nil, reason: first)
        }
        throw ImportError.unrecognized(reason: "the zip holds no Apple Health export XML (no member starts with <HealthData); members: "
                                       + members.prefix(8).map(\.name).joined(separator: ", "))
    }

    static func isCandidate(_ m: ZipMember) -> Bool {
        let lower = m.name.lowercased()
        if m.isDirectory || lower.contains("workout-routes/") || lower.contains("electrocardiograms/") { return false }
        for ext in [".gpx", ".csv", ".pdf", ".png", ".jpg", ".json"] where lower.hasSuffix(ext) { return false }
        return true
    }

    /// Lower is tried first: `.xml` names, CDA last.
    static func rank(_ m: ZipMember) -> Int {
        let lower = m.name.lowercased()
        if lower.contains("cda") { return 2 }
        return lower.hasSuffix(".xml") ? 0 : 1
    }

    /// Whether the first bytes of the member hold an Apple Health export root. The CRC is not
    /// checked here: a small member is read whole by the first read, and its CRC failing there
    /// would call a corrupt export "no export" (the import that follows names the CRC failure).
    static func looksLikeHealthExport(_ source: ByteSource, _ m: ZipMember) throws -> Bool {
        let stream: ZipMemberStream
        do { stream = try ZipMemberStream(source: source, member: m, checkCRC: false) } catch { return false }
        var head = [UInt8](repeating: 0, count: 64 << 10)
        var have = 0
        while have < head.count {
            let n: Int
            do {
                n = try head.withUnsafeMutableBytes { try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[have...])) }
            } catch {
                if have > 0 { break } else { return false }
            }
            if n == 0 { break }
            have += n
            // The root that comes first decides (a CDA document may quote `<HealthData`, an export
            // `<ClinicalDocument`), whatever the read sizes: no root starting earlier can still be
            // incomplete, for none holds a `<` past its first byte.
            let text = head[0..<have]
            let export = [offset(of: "<HealthData", in: text), offset(of: "<!DOCTYPE HealthData", in: text)].compactMap { $0 }.min()
            let clinical = offset(of: "<ClinicalDocument", in: text)
            if let export, clinical.map({ export < $0 }) ?? true { return true }
            if clinical != nil { return false }
        }
        return false
    }

    /// Where `needle` first starts in `hay`, or nil.
    static func offset(of needle: String, in hay: ArraySlice<UInt8>) -> Int? {
        let n = Array(needle.utf8)
        guard hay.count >= n.count else { return nil }
        var i = hay.startIndex
        while i + n.count <= hay.endIndex {
            if hay[i] == n[0], hay[i..<(i + n.count)].elementsEqual(n) { return i }
            i += 1
        }
        return nil
    }

    // MARK: - Central directory

    enum CentralDirectoryError: Error { case missing }

    /// Every member listed in the central directory.
    static func centralDirectory(_ source: ByteSource) throws -> [ZipMember] {
        let size = source.size
        let tailLength = Int(min(size, 65_557))
        let tail = try readExactly(source, at: size - Int64(tailLength), count: tailLength)
        var eocd = -1
        var i = tailLength - 22
        while i >= 0 {
            if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 0x05, tail[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw CentralDirectoryError.missing }
        var count = Int64(le16(tail, eocd + 10))
        var cdSize = Int64(le32(tail, eocd + 12))
        var cdOffset = Int64(le32(tail, eocd + 16))
        if count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF, eocd >= 20,
           le32(tail, eocd - 20) == 0x0706_4B50 {
            let z64Offset = Int64(bitPattern: le64(tail, eocd - 20 + 8))
            let z64 = try readExactly(source, at: z64Offset, count: 56)
            guard le32(z64, 0) == 0x0606_4B50 else {
                throw ImportError.malformed(format: format, line: nil, offset: z64Offset, reason: "bad zip64 end of central directory record")
            }
            count = Int64(bitPattern: le64(z64, 32))
            cdSize = Int64(bitPattern: le64(z64, 40))
            cdOffset = Int64(bitPattern: le64(z64, 48))
        }
        guard cdOffset >= 0, cdSize >= 0, cdSize <= size, cdOffset <= size - cdSize else { throw CentralDirectoryError.missing }
        var members: [ZipMember] = []
        var at = cdOffset
        let cdEnd = cdOffset + cdSize
        while at + 46 <= cdEnd, members.count < count || count == 0xFFFF {
            let h = try readExactly(source, at: at, count: 46)
            guard le32(h, 0) == 0x0201_4B50 else {
                throw ImportError.malformed(format: format, line: nil, offset: at, reason: "bad central directory entry")
            }
            let nameLength = Int(le16(h, 28)), extraLength = Int(le16(h, 30)), commentLength = Int(le16(h, 32))
            let rest = try readExactly(source, at: at + 46, count: nameLength + extraLength)
            var m = ZipMember(name: String(decoding: rest[0..<nameLength], as: UTF8.self),
                              method: le16(h, 10), flags: le16(h, 8), crc: le32(h, 16),
                              compressedSize: Int64(le32(h, 20)), uncompressedSize: Int64(le32(h, 24)),
                              localHeaderOffset: Int64(le32(h, 42)))
            applyZip64(extra: Array(rest[nameLength...]), to: &m, localOffsetToo: true)
            members.append(m)
            at += 46 + Int64(nameLength + extraLength + commentLength)
        }
        return members
    }

    /// Fills 0xFFFFFFFF sizes and offset from a zip64 extra field (tag 0x0001), in its order.
    static func applyZip64(extra: [UInt8], to m: inout ZipMember, localOffsetToo: Bool) {
        var i = 0
        while i + 4 <= extra.count {
            let tag = le16(extra, i), length = Int(le16(extra, i + 2))
            let body = i + 4
            guard body + length <= extra.count else { return }
            if tag == 0x0001 {
                var p = body
                func next() -> Int64? {
                    guard p + 8 <= body + length else { return nil }
                    defer { p += 8 }
                    // A value past Int64.max is a lie: leave it unknown (nil) rather than trap.
                    let v = Int64(bitPattern: le64(extra, p))
                    return v >= 0 ? v : nil
                }
                if m.uncompressedSize == 0xFFFF_FFFF { m.uncompressedSize = next() }
                if m.compressedSize == 0xFFFF_FFFF { m.compressedSize = next() }
                if localOffsetToo, m.localHeaderOffset == 0xFFFF_FFFF, let o = next() { m.localHeaderOffset = o }
                return
            }
            i = body + length
        }
    }

    /// The offset of a member's data, from its local header.
    static func dataOffset(_ source: ByteSource, _ m: ZipMember) throws -> Int64 {
        let h = try readExactly(source, at: m.localHeaderOffset, count: 30)
        guard le32(h, 0) == 0x0403_4B50 else {
            throw ImportError.malformed(format: format, line: nil, offset: m.localHeaderOffset, reason: "bad local header for member '\(m.name)'")
        }
        return m.localHeaderOffset + 30 + Int64(le16(h, 26)) + Int64(le16(h, 28))
    }

    // MARK: - Local headers (no central directory)

    /// Walks local headers from the start of a zip whose central directory is missing (a
    /// truncated download), returning the export member.
    static func walkLocalHeaders(_ source: ByteSource) throws -> ZipMember {
        var at: Int64 = 0
        var seen: [String] = []
        var unreadable: [String] = []
        while at + 30 <= source.size {
            let h = try readExactly(source, at: at, count: 30)
            guard le32(h, 0) == 0x0403_4B50 else { break }
            let nameLength = Int(le16(h, 26)), extraLength = Int(le16(h, 28))
            let rest = try readExactly(source, at: at + 30, count: nameLength + extraLength)
            let flags = le16(h, 6)
            var m = ZipMember(name: String(decoding: rest[0..<nameLength], as: UTF8.self),
                              method: le16(h, 8), flags: flags, crc: le32(h, 14),
                              compressedSize: Int64(le32(h, 18)), uncompressedSize: Int64(le32(h, 22)),
                              localHeaderOffset: at)
            applyZip64(extra: Array(rest[nameLength...]), to: &m, localOffsetToo: false)
            if m.hasDataDescriptor { m.compressedSize = nil; m.uncompressedSize = nil }
            m.dataOffset = at + 30 + Int64(nameLength + extraLength)
            seen.append(m.name)
            let refusal = ZipMemberStream.refusal(for: m)
            if isCandidate(m) {
                if let refusal { unreadable.append(refusal) } else if try looksLikeHealthExport(source, m) { return m }
            }
            // Skip to the next local header.
            if let c = m.compressedSize {
                guard c <= source.size - m.dataOffset else { break }   // the zip ends inside this member
                at = m.dataOffset + c
            } else if let refusal {
                // Without its size, an unreadable member cannot be skipped.
                throw ImportError.refused(format: format, offset: at, reason: refusal)
            } else if m.method == 8 {
                let stream = try ZipMemberStream(source: source, member: m, checkCRC: false)
                try stream.drain()
                at = stream.sourceBytesRead
            } else {
                break
            }
            if m.hasDataDescriptor {
                let d = try readExactly(source, at: at, count: min(24, Int(max(0, source.size - at))))
                let signed = d.count >= 4 && le32(d, 0) == 0x0807_4B50
                at += (signed ? 4 : 0) + 12
            }
        }
        if let first = unreadable.first {
            throw ImportError.refused(format: format, offset: nil, reason: first)
        }
        throw ImportError.truncated(format: format, offset: at,
                                    reason: "the zip has no central directory (incomplete download?) and no readable Apple Health export member"
                                        + (seen.isEmpty ? "" : " among: " + seen.prefix(8).joined(separator: ", ")))
    }

    // MARK: - Bytes

    static func readExactly(_ source: ByteSource, at offset: Int64, count: Int) throws -> [UInt8] {
        // Offsets come from the file itself: one outside it is a truncated or lying zip.
        guard offset >= 0, offset <= source.size else {
            throw ImportError.truncated(format: format, offset: max(0, min(offset, source.size)),
                                        reason: "a header points to byte \(offset), outside the \(source.size)-byte zip")
        }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        try out.withUnsafeMutableBytes { buf in
            while done < count {
                let n = try source.read(at: offset + Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: buf[done...]))
                if n == 0 { break }
                done += n
            }
        }
        guard done == count else {
            throw ImportError.truncated(format: format, offset: offset + Int64(done), reason: "the zip ends inside a header")
        }
        return out
    }

    @inline(__always) static func le16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    @inline(__always) static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    @inline(__always) static func le64(_ b: [UInt8], _ i: Int) -> UInt64 {
        UInt64(le32(b, i)) | UInt64(le32(b, i + 4)) << 32
    }
}
