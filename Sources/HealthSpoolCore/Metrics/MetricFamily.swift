/// One metric in the Prometheus sense: a name, its help text, its type and its samples (one per
/// label set; a histogram's buckets, sum and count are samples too). A plain value: the daemon
/// gathers a list of these, `PrometheusText` writes them out.
public struct MetricFamily: Sendable, Equatable {
    /// The Prometheus metric types healthspool exposes.
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// One line of the family: the name's suffix (`""`, `"_bucket"`, `"_sum"`, `"_count"`), its
    /// labels in order, and its value.
    public struct Sample: Sendable, Equatable {
        public var suffix: String
        public var labels: [Label]
        public var value: Double

        public init(suffix: String = "", labels: [Label] = [], value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }
    }

    /// A label: name and value (the value is escaped when written).
    public struct Label: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    public init(name: String, help: String, kind: Kind, samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// A counter or gauge with one unlabelled value.
    public static func single(_ name: String, _ kind: Kind, _ help: String, _ value: Double) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: kind, samples: [Sample(value: value)])
    }

    /// A counter or gauge with one label, a sample per value of it, in the order of the label's
    /// values (sorted: scrapes of equal state are equal text).
    public static func labelled(_ name: String, _ kind: Kind, _ help: String, label: String,
                                _ values: [String: Double]) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: kind,
                     samples: values.sorted { $0.key < $1.key }.map { Sample(labels: [Label(label, $0.key)], value: $0.value) })
    }

    /// Whether `name` is a valid metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`); label names are the
    /// same without the colon (`allowColon: false`).
    static func isValidName(_ name: String, allowColon: Bool = true) -> Bool {
        guard let first = name.utf8.first else { return false }
        func letter(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || (allowColon && c == 0x3A) }
        return letter(first) && name.utf8.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
