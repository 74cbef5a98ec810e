import HealthSpoolCore

/// Apple Health "Export All Health Data": export.zip (streamed) or a bare export.xml.
///
/// Both are read in fixed-size chunks with memory that stays flat whatever the size of the
/// export: the zip's XML member is inflated on the fly (never unpacked to disk) and the XML is
/// read by a purpose-built tag scanner (`XMLTagScanner`) that never interprets the DTD.
public enum AppleHealthParser {
    /// How often progress is reported, in bytes of the input file.
    static let progressInterval: Int64 = 4 << 20

    /// Parses an export.zip, finding the XML member by content.
    public static func parseZip(_ source: ByteSource, into sink: SampleSink) throws -> ParseReport {
        let member = try ZipArchive.findHealthExport(in: source)
        // Inflated on a third thread, ahead of the scanner.
        let stream = ReadAheadStream(try ZipMemberStream(source: source, member: member))
        return try ParsePipeline.run(into: sink) { sink in
            var links = ExportPartLinks()
            var report = try parse(stream, format: "Apple Health export (zip member '\(member.name)')", into: sink, links: &links)
            // Then the routes and ECGs beside the XML (ExportParts).
            try ExportParts.read(source, export: member, links: links, into: sink, report: &report)
            return report
        }
    }

    /// Parses a bare export.xml.
    public static func parseXML(_ source: ByteSource, into sink: SampleSink) throws -> ParseReport {
        let stream = SourceByteStream(source)
        return try ParsePipeline.run(into: sink) { sink in
            try parse(stream, format: "Apple Health XML", into: sink)
        }
    }

    /// Scans `stream` to its end, handing samples to `sink`.
    static func parse(_ stream: ByteStream, format: String, into sink: SampleSink) throws -> ParseReport {
        var links = ExportPartLinks()
        return try parse(stream, format: format, into: sink, links: &links)
    }

    /// Scans `stream` to its end, handing samples to `sink`; `links` receives what the XML says
    /// about the zip's other parts.
    static func parse(_ stream: ByteStream, format: String, into sink: SampleSink, links: inout ExportPartLinks) throws -> ParseReport {
        let scanner = XMLTagScanner(stream)
        let builder = AppleHealthSampleBuilder(scanner: scanner, sink: sink)
        var nextProgress = progressInterval
        var tags = 0
        while true {
            let event: XMLTagScanner.Event
            do {
                event = try scanner.next()
            } catch let error as ImportError {
                try builder.finish()
                throw error.appending("; the XML was read up to line \(scanner.line), byte \(scanner.offset)")
            }
            switch event {
            case .start: try builder.start(empty: false)
            case .empty: try builder.start(empty: true)
            case .end: try builder.end()
            case let .eof(insideMarkup):
                try builder.finish()
                sink.progress(bytesRead: stream.sourceBytesRead)
                if !builder.sawHealthData {
                    throw ImportError.unrecognized(reason: "no <HealthData> element: not an Apple Health export.xml")
                }
                if insideMarkup || !builder.healthDataClosed {
                    let open = builder.stack.last.map { "inside an open \($0) element" } ?? "before </HealthData>"
                    throw ImportError.truncated(format: format, offset: scanner.offset,
                                                reason: "the XML ends \(insideMarkup ? "in the middle of a tag" : open) at line \(scanner.line)")
                }
                links = builder.partLinks
                return builder.report
            }
            tags += 1
            if tags & 1023 == 0, stream.sourceBytesRead >= nextProgress {
                sink.progress(bytesRead: stream.sourceBytesRead)
                nextProgress = stream.sourceBytesRead + progressInterval
            }
        }
    }
}

extension ImportError {
    /// The same error with more context in its reason.
    func appending(_ context: String) -> ImportError {
        switch self {
        case let .malformed(format, line, offset, reason): .malformed(format: format, line: line, offset: offset, reason: reason + context)
        case let .truncated(format, offset, reason): .truncated(format: format, offset: offset, reason: reason + context)
        case let .unrecognized(reason): .unrecognized(reason: reason + context)
        case let .refused(format, offset, reason): .refused(format: format, offset: offset, reason: reason + context)
        case .tooLarge: self
        }
    }
}
