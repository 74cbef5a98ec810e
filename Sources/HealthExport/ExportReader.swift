import HealthSpoolCore

/// Reads any supported input: detects the format by content, then hands it to its parser.
public enum ExportReader {
    /// Parses `source` (whose file name is `name`, used only as a hint) into `sink`.
    /// Throws `ImportError` when the file cannot be read at all, or stops part-way; samples
    /// already handed to the sink are facts and should be kept by the caller.
    @discardableResult
    public static func parse(_ source: ByteSource, name: String, into sink: SampleSink) throws -> (ExportFormat, ParseReport) {
        let head = try source.head(8192)
        guard !head.isEmpty else { throw ImportError.unrecognized(reason: "the file is empty") }
        guard let format = ExportFormat.detect(head: head, name: name) else {
            throw ImportError.unrecognized(reason: "the first bytes match no known format")
        }
        let report: ParseReport
        switch format {
        case .appleHealthZip: report = try AppleHealthParser.parseZip(source, into: sink)
        case .appleHealthXML: report = try AppleHealthParser.parseXML(source, into: sink)
        case .autoExportJSON: report = try AutoExportParser.parseJSON(try source.readAll(), into: sink)
        case .autoExportCSV: report = try AutoExportParser.parseCSV(try source.readAll(), into: sink)
        case .nativeJSON: report = try NativeParser.parse(source, into: sink)
        case .csv: report = try PlainCSVParser.parse(try source.readAll(), into: sink)
        }
        return (format, report)
    }
}
