@testable import HealthExport
import HealthSpoolCore

/// The readers of an export.zip's side files (issue 42): workout-route GPX, ECG CSV and
/// clinical-record FHIR JSON.
/// Properties: the same outcome whole and in fuzzed read sizes (GPX); every point a place on
/// Earth, in parts of at most `RoutePoint.perSample`, voltages within their bound; round trip.
enum ExportPartTargets {
    static let gpx = FuzzTarget(name: "gpx", summary: "workout-route GPX reader (chunked reads, bounds, round trip)") { data in
        let bytes = Array(data)
        func read(_ chunking: Chunking?) -> ParseOutcome {
            ParseOutcome { sink in
                var report = ParseReport()
                try GPXReader.read(ChunkedStream(bytes, chunking: chunking), name: "route.gpx", link: .unlinked, report: &report) {
                    try sink.accept($0)
                }
                return report
            }
        }
        let whole = read(nil)
        whole.expectSame(as: read(Chunking(for: data)), "gpx whole vs chunked reads")
        for s in whole.samples {
            guard let points = RoutePoint.decode(s.metadata["points"] ?? "") else { propertyFailed("gpx: a part's points do not decode") }
            if points.isEmpty || points.count > RoutePoint.perSample || Int(s.value) != points.count {
                propertyFailed("gpx: a part of \(points.count) points says \(s.value)")
            }
            if let bad = points.first(where: { !$0.isValid }) { propertyFailed("gpx: \(bad) is not a place on Earth") }
        }
        RoundTrip.check(whole.samples, from: "gpx")
    }

    static let ecg = FuzzTarget(name: "ecg-csv", summary: "ECG CSV reader (header by name or place, bounds, round trip)") { data in
        var report = ParseReport()
        guard let recording = ECGReader.read(Array(data), name: "ecg.csv", report: &report) else { return }
        if recording.microvolts.count > ECGVoltages.maxCount || recording.microvolts.count < 2 || !(recording.sampleRateHz > 0) {
            propertyFailed("ecg-csv: \(recording.microvolts.count) voltages at \(recording.sampleRateHz) Hz passed the bounds")
        }
        let sample = recording.sample()
        if ECGVoltages.decode(sample.metadata["voltages"] ?? "")?.count != recording.microvolts.count {
            propertyFailed("ecg-csv: the voltages do not decode back")
        }
        RoundTrip.check([sample], from: "ecg-csv")
    }

    static let clinicalRecord = FuzzTarget(name: "clinical-record", summary: "clinical-record FHIR JSON reader (kept byte for byte, bounds, round trip)") { data in
        var report = ParseReport()
        let bytes = Array(data)
        guard let sample = ClinicalRecordReader.read(bytes, name: "clinical-records/x.json", link: .unlinked, report: &report) else { return }
        if Array((sample.metadata["resource"] ?? "").utf8) != bytes {
            propertyFailed("clinical-record: the stored resource is not the file's bytes")
        }
        guard let json = try? JSONParser.parse(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes),
              json["resourceType"]?.stringValue == sample.metadata["resourceType"] else {
            propertyFailed("clinical-record: the record's resourceType is not the file's")
        }
        RoundTrip.check([sample], from: "clinical-record")
    }
}
