import HealthSpoolCore

/// Top-level copies of records that a `Correlation` may repeat later in the file.
///
/// Apple writes a blood-pressure reading's two records at top level *and* inside its
/// `Correlation`, whose copies carry the correlation's metadata (device, sequence number). Both
/// copies have the same id, so the store keeps whichever comes first — the top-level one, which
/// lacks that metadata. Top-level records of correlation member types are therefore held back
/// until the end of the file and handed over only when no correlation repeated them. Memory
/// stays bounded: past `limit` held samples, the rest go through at once.
struct CorrelationCopies {
    /// Types Apple puts inside correlations that carry metadata worth keeping (blood pressure).
    static let memberTypes: Set<String> = ["bloodPressureSystolic", "bloodPressureDiastolic"]
    /// Held samples at most (a reading a day for decades fits many times over).
    static let limit = 100_000

    private var held: [Sample] = []
    private var index: [SampleID: Int] = [:]
    private var superseded: Set<Int> = []

    /// Holds `sample` back; false when the limit is reached (the caller hands it over now).
    mutating func hold(_ sample: Sample) -> Bool {
        guard held.count < Self.limit else { return false }
        index[sample.id] = held.count
        held.append(sample)
        return true
    }

    /// A correlation's copy of `id` was handed over: the held top-level copy is dropped.
    mutating func supersede(_ id: SampleID) {
        if let i = index[id] { superseded.insert(i) }
    }

    /// The held samples no correlation repeated, in file order; empties the hold.
    mutating func release() -> [Sample] {
        defer { held = []; index = [:]; superseded = [] }
        return held.indices.filter { !superseded.contains($0) }.map { held[$0] }
    }
}
