@testable import HealthExport
import HealthSpoolCore

/// Health Auto Export JSON and CSV. Property: the round trip through the encoder.
enum AutoExportTargets {
    static let json = FuzzTarget(name: "hae-json", summary: "Health Auto Export JSON (round trip)") { data in
        let outcome = ParseOutcome { try AutoExportParser.parseJSON(Array(data), into: $0) }
        RoundTrip.check(outcome.samples, from: "hae-json")
    }

    static let csv = FuzzTarget(name: "hae-csv", summary: "Health Auto Export CSV (round trip)") { data in
        let outcome = ParseOutcome { try AutoExportParser.parseCSV(Array(data), into: $0) }
        RoundTrip.check(outcome.samples, from: "hae-csv")
    }
}

/// The native JSON/NDJSON and plain CSV formats. Properties: the round trip; for native input,
/// parsing is idempotent (what the encoder writes for parsed samples parses to them).
enum NativeTargets {
    static let native = FuzzTarget(name: "native", summary: "native JSON/NDJSON (round trip)") { data in
        let outcome = ParseOutcome { try NativeParser.parse(Array(data), into: $0) }
        RoundTrip.check(outcome.samples, from: "native")
    }

    static let csv = FuzzTarget(name: "csv", summary: "plain CSV (round trip)") { data in
        let outcome = ParseOutcome { try PlainCSVParser.parse(Array(data), into: $0) }
        RoundTrip.check(outcome.samples, from: "csv")
    }
}
