/// The order in which sources count where their samples overlap (`day.source_priority`).
///
/// Each entry is matched, case-insensitively, as a substring of a sample's source name or
/// device; the first entry that matches gives the rank. Sources no entry matches come last
/// (apps that write their own samples). The default, `watch, phone`, puts an Apple Watch before
/// an iPhone before everything else, as the Health app does.
public struct SourcePriority: Hashable, Sendable, CustomStringConvertible {
    /// The entries, highest priority first, lowercased.
    public let entries: [String]

    public init(_ entries: [String]) {
        self.entries = entries.map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
    }

    /// Watch before phone before apps.
    public static let standard = SourcePriority(["watch", "phone"])

    /// The rank of a source: 0 for the first entry, `entries.count` when none matches.
    public func rank(name: String, device: String? = nil) -> Int {
        let n = name.lowercased(), d = device?.lowercased() ?? ""
        for (i, e) in entries.enumerated() where n.contains(e) || d.contains(e) { return i }
        return entries.count
    }

    /// The entries as written in the setting.
    public var description: String { entries.joined(separator: ",") }
}
