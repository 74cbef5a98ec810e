@testable import HealthExport
import HealthSpoolCore

/// Everything a parse handed out, comparable: samples (with their UTC offsets, which `Sample`'s
/// equality ignores), profiles, the report, or the error it stopped with.
struct ParseOutcome: Equatable {
    var samples: [Sample] = []
    var offsets: [Int32] = []
    var profiles: [String] = []
    var report: ParseReport?
    var error: String?

    /// Runs `parse` into a fresh sink.
    init(_ parse: (SampleSink) throws -> ParseReport) {
        let sink = CollectingSink()
        do { report = try parse(sink) } catch { self.error = "\(error)" }
        samples = sink.samples
        offsets = samples.flatMap { [$0.start.utcOffsetSeconds, $0.end.utcOffsetSeconds] }
        profiles = sink.profiles.map { $0.map { "\($0.0)=\($0.1)" }.joined(separator: ",") }
    }

    /// Fails the run when `other` differs.
    func expectSame(as other: ParseOutcome, _ what: String) {
        guard self != other else { return }
        var why = ""
        if samples != other.samples {
            let i = zip(samples, other.samples).enumerated().first { $1.0 != $1.1 }?.offset ?? min(samples.count, other.samples.count)
            why = "samples differ at #\(i) (\(samples.count) vs \(other.samples.count)): "
                + "\(i < samples.count ? "\(samples[i])" : "none") vs \(i < other.samples.count ? "\(other.samples[i])" : "none")"
        } else if offsets != other.offsets {
            why = "UTC offsets differ"
        } else if report != other.report {
            why = "reports differ: \(String(describing: report)) vs \(String(describing: other.report))"
        } else {
            why = "errors differ: \(error ?? "none") vs \(other.error ?? "none")"
        }
        propertyFailed("\(what): \(why)")
    }
}
