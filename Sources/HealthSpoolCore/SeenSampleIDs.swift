/// The ids a full export held, kept compactly while it is imported: the first 8 of each id's 16
/// bytes, sorted once at the end (8 bytes a sample; a 1 GB export's ~5 M samples take ~40 MB).
/// Two ids sharing their first 8 bytes only make a deletion go unseen, never a sample be
/// called deleted: the conservative side.
public struct SeenSampleIDs: Sendable {
    private var prefixes: [UInt64] = []
    private var sorted = true

    public init() {}

    /// How many ids were noted.
    public var count: Int { prefixes.count }

    /// Notes an id the export held.
    public mutating func insert(_ id: SampleID) {
        if let last = prefixes.last, last > id.high { sorted = false }
        prefixes.append(id.high)
    }

    /// Sorts the ids for `contains` (once, after the last `insert`).
    public mutating func seal() {
        if !sorted { prefixes.sort(); sorted = true }
    }

    /// Whether the export held `id` (after `seal`).
    public func contains(_ id: SampleID) -> Bool {
        var low = 0, high = prefixes.count
        let key = id.high
        while low < high {
            let mid = (low + high) / 2
            if prefixes[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < prefixes.count && prefixes[low] == key
    }
}
