import HealthSpoolCore

/// Apple Health "Export All Health Data": export.zip (streamed) or a bare export.xml.
public enum AppleHealthParser {
    /// Parses an export.zip, finding the XML member by content.
    public static func parseZip(_ source: ByteSource, into sink: SampleSink) throws -> ParseReport {
        throw ImportError.unrecognized(reason: "Apple Health zip import is not built yet")
    }

    /// Parses a bare export.xml.
    public static func parseXML(_ source: ByteSource, into sink: SampleSink) throws -> ParseReport {
        throw ImportError.unrecognized(reason: "Apple Health XML import is not built yet")
    }
}
