import HealthExport
import HealthSpoolCore

/// Collects samples in memory, for the parser tests (production imports go to the store).
final class CollectingSink: SampleSink {
    private(set) var samples: [Sample] = []
    private(set) var profiles: [[(String, String)]] = []
    init() {}
    func accept(_ sample: consuming Sample) throws { samples.append(sample) }
    func profile(_ attributes: [(String, String)]) { profiles.append(attributes) }
}
