@testable import HealthExport
import HealthSpoolCore

/// The Apple Health XML tag scanner and sample builder, fed through the stream interface the zip
/// member and bare files use. Properties: the same outcome whole and in fuzzed read sizes; every
/// sample survives the encoder and parses back the same.
enum AppleXMLTarget {
    static let target = FuzzTarget(name: "apple-xml", summary: "Apple Health XML scanner and sample builder (chunked reads, round trip)") { data in
        let bytes = Array(data)
        let whole = ParseOutcome { try AppleHealthParser.parse(ChunkedStream(bytes, chunking: nil), format: "Apple Health XML", into: $0) }
        let chunked = ParseOutcome {
            try AppleHealthParser.parse(ChunkedStream(bytes, chunking: Chunking(for: data)), format: "Apple Health XML", into: $0)
        }
        whole.expectSame(as: chunked, "apple-xml whole vs chunked reads")
        RoundTrip.check(whole.samples, from: "apple-xml")
    }
}

/// The importer's entry point: format detection, then the parser it picks, with the threads of
/// the real import (parse pipeline, zip read-ahead). Properties: the round trip, and for a bare
/// XML the same outcome as the single-threaded scanner.
enum ExportTarget {
    static let target = FuzzTarget(name: "export", summary: "format detection and every parser through ExportReader (threads as in an import)") { data in
        let bytes = Array(data)
        var format: ExportFormat?
        let outcome = ParseOutcome { sink in
            let (f, report) = try ExportReader.parse(MemoryByteSource(bytes), name: "fuzz", into: sink)
            format = f
            return report
        }
        if format == .appleHealthXML {
            let direct = ParseOutcome { try AppleHealthParser.parse(ChunkedStream(bytes, chunking: nil), format: "Apple Health XML", into: $0) }
            outcome.expectSame(as: direct, "export: pipeline vs direct XML parse")
        }
        RoundTrip.check(outcome.samples, from: "export (\(format?.rawValue ?? "?"))")
    }
}
