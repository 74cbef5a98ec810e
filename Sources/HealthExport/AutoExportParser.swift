import HealthSpoolCore

/// Health Auto Export (iOS app) JSON and CSV.
public enum AutoExportParser {
    /// Parses Health Auto Export JSON (`data.metrics[]`, `data.workouts[]`).
    public static func parseJSON(_ bytes: [UInt8], into sink: SampleSink) throws -> ParseReport {
        throw ImportError.unrecognized(reason: "Health Auto Export JSON import is not built yet")
    }

    /// Parses Health Auto Export CSV.
    public static func parseCSV(_ bytes: [UInt8], into sink: SampleSink) throws -> ParseReport {
        throw ImportError.unrecognized(reason: "Health Auto Export CSV import is not built yet")
    }
}
