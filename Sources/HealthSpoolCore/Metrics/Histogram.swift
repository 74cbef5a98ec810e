/// A Prometheus histogram of observed values (request durations, in seconds): a count per
/// bucket, the sum and the count. Kept per bucket; written cumulative (`le` = "less than or
/// equal"), with the `+Inf` bucket equal to the count, as the format requires.
public struct Histogram: Sendable, Equatable {
    /// The buckets' upper bounds, ascending (`+Inf` is implied).
    public let bounds: [Double]
    /// Observations per bucket (not cumulative); the last entry counts those above every bound.
    public private(set) var counts: [UInt64]
    public private(set) var sum: Double = 0
    public private(set) var count: UInt64 = 0

    /// Bounds for HTTP request durations, 5 ms to 30 s.
    public static let requestSeconds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    public init(bounds: [Double]) {
        self.bounds = bounds.sorted()
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    /// Records one value: in the first bucket whose bound is at least `value`.
    public mutating func observe(_ value: Double) {
        let index = bounds.firstIndex { value <= $0 } ?? bounds.count
        counts[index] += 1
        sum += value
        count += 1
    }

    /// The histogram as a family `name`: `name_bucket{le=…}` cumulative, `name_sum`, `name_count`.
    public func family(_ name: String, help: String) -> MetricFamily {
        var samples: [MetricFamily.Sample] = []
        var running: UInt64 = 0
        for (i, bound) in bounds.enumerated() {
            running += counts[i]
            samples.append(.init(suffix: "_bucket", labels: [.init("le", PrometheusText.number(bound))], value: Double(running)))
        }
        samples.append(.init(suffix: "_bucket", labels: [.init("le", "+Inf")], value: Double(count)))
        samples.append(.init(suffix: "_sum", value: sum))
        samples.append(.init(suffix: "_count", value: Double(count)))
        return MetricFamily(name: name, help: help, kind: .histogram, samples: samples)
    }
}
