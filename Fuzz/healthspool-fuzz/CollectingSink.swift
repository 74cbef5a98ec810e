import HealthExport
import HealthSpoolCore

/// Keeps what a parse hands out, for the properties to compare.
final class CollectingSink: SampleSink {
    private(set) var samples: [Sample] = []
    private(set) var profiles: [[(String, String)]] = []
    func accept(_ sample: consuming Sample) throws { samples.append(sample) }
    func profile(_ attributes: [(String, String)]) { profiles.append(attributes) }
}
