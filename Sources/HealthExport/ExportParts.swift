import HealthSpoolCore

/// Reads the parts of an Apple Health export.zip beside export.xml (`ExportPart`), after it:
/// each member is recognized by its first bytes, read as a stream, and turned into samples.
/// A damaged part is noted with its name (and line) and the others are read; the samples of a
/// part read before its damage are kept.
enum ExportParts {
    /// At most this many members are looked at (an export has one per route and ECG).
    static let maxMembers = 50_000
    /// Bytes of a member looked at to recognize it.
    static let headBytes = 4096

    static func read(_ source: ByteSource, export: ZipMember, links: ExportPartLinks, into sink: SampleSink,
                     report: inout ParseReport) throws {
        let members: [ZipMember]
        do { members = try ZipArchive.centralDirectory(source) } catch {
            // A zip without its directory (cut short): the XML was read by walking it; its
            // side files are not looked for.
            report.ignored["side files (routes, ECGs, clinical records): the zip has no central directory", default: 0] += 1
            return
        }
        noteAbsentClinicalRecords(members, links: links, report: &report)
        var looked = 0
        for var m in members where !m.isDirectory && m.localHeaderOffset != export.localHeaderOffset {
            looked += 1
            if looked > maxMembers {
                report.note(ParseProblem(message: "the zip holds more than \(maxMembers) files; the rest are not looked at"))
                break
            }
            if ZipMemberStream.refusal(for: m) != nil { continue }
            do {
                m.dataOffset = try ZipArchive.dataOffset(source, m)
                guard let head = try head(source, m), let kind = ExportPart.recognize(head[...]) else { continue }
                if let size = m.uncompressedSize, size > kind.maxBytes {
                    report.note(ParseProblem(message: "part '\(m.name)': a \(kind.rawValue) of \(size) bytes is larger than the \(kind.maxBytes) read; skipped"))
                    continue
                }
                try read(kind, source, m, links: links, into: sink, report: &report)
            } catch let e as ImportError {
                report.note(ParseProblem(message: "part '\(m.name)': \(e); what was read before is kept"))
            } catch is MarkupReader.Damage {
                continue
            }
        }
    }

    /// The first bytes of a member, or nil when it cannot be inflated.
    static func head(_ source: ByteSource, _ m: ZipMember) throws -> [UInt8]? {
        let stream: ZipMemberStream
        do { stream = try ZipMemberStream(source: source, member: m, checkCRC: false) } catch { return nil }
        var head = [UInt8](repeating: 0, count: headBytes)
        var have = 0
        while have < head.count {
            let n: Int
            do {
                n = try head.withUnsafeMutableBytes { try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[have...])) }
            } catch { break }
            if n == 0 { break }
            have += n
        }
        return have > 0 ? Array(head[0..<have]) : nil
    }

    static func read(_ kind: ExportPart, _ source: ByteSource, _ m: ZipMember, links: ExportPartLinks, into sink: SampleSink,
                     report: inout ParseReport) throws {
        let stream = try BoundedStream(ZipMemberStream(source: source, member: m), limit: kind.maxBytes, name: m.name)
        var count = 0
        let emit: (consuming Sample) throws -> Void = { sample in
            try sink.accept(sample)
            count += 1
        }
        defer { report.samples += count }
        switch kind {
        case .workoutRoute:
            let link = links.routes[ExportPartLinks.fileName(m.name)] ?? .unlinked
            if link.workoutID == nil { report.ignored["route files no workout in export.xml names (kept, tied by time)", default: 0] += 1 }
            try GPXReader.read(stream, name: m.name, link: link, report: &report, emit: emit)
        case .electrocardiogram:
            let bytes = try stream.readAll()
            if let recording = ECGReader.read(bytes, name: m.name, report: &report) { try emit(recording.sample()) }
        case .clinicalRecord:
            let bytes = try stream.readAll()
            let link = links.clinicalRecords[ExportPartLinks.fileName(m.name)] ?? .unlinked
            if let record = ClinicalRecordReader.read(bytes, name: m.name, link: link, report: &report) { try emit(record) }
        }
    }
}

/// A stream that refuses to give more than `limit` bytes: a part whose header lied about its
/// size stops there.
final class BoundedStream: ByteStream {
    private let inner: ByteStream
    private let limit: Int64
    private let name: String
    private var given: Int64 = 0

    init(_ inner: ByteStream, limit: Int64, name: String) {
        self.inner = inner
        self.limit = limit
        self.name = name
    }

    var sourceBytesRead: Int64 { inner.sourceBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = try inner.read(into: buffer)
        given += Int64(n)
        if given > limit {
            throw ImportError.refused(format: ZipArchive.format, offset: nil,
                                      reason: "part '\(name)' inflates past \(limit) bytes, more than a real one")
        }
        return n
    }

    /// Everything, up to the limit.
    func readAll() throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}
