extension Sample {
    /// A sample whose id derives from its type, source and `key` (a clinical record's resource
    /// id, a medication's name and scheduled time) rather than from its time and value:
    /// records that share a type, time and source stay apart, and the same record dropped again
    /// finds the same id.
    public init(keyed key: String, type: String, value: Double, unit: String, start: Timestamp, end: Timestamp? = nil,
                source: SampleSource, metadata: [String: String] = [:], revisable: Bool = false) {
        self.init(storedID: SampleIdentity.keyed(type: type, key: key, sourceName: source.name), type: type, value: value,
                  unit: unit, start: start, end: end ?? start, source: source, metadata: metadata, revisable: revisable)
    }
}

extension SampleIdentity {
    /// The id of a keyed sample (`Sample(keyed:…)`): the type, the source's name and the key.
    public static func keyed(type: String, key: String, sourceName: String) -> SampleID {
        id(type: type, start: 0, end: 0, value: nil, unit: "key\u{1F}" + key, sourceName: sourceName)
    }
}
