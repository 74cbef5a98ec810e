/// The "did you mean …?" hint for a mistyped name: the closest of the valid names by edit
/// distance (case ignored), when it is close enough to be a typo rather than another word.
public enum NameSuggestion {
    /// The candidate closest to `word`, or nil when none is within `max(2, word.count / 3)` edits.
    /// A candidate that starts with `word` (an abbreviation, `stat` for `status`) counts as close.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let lower = word.lowercased()
        guard !lower.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let c = candidate.lowercased()
            let d = c.hasPrefix(lower) && lower.count >= 3 ? 1 : DataType.editDistance(lower, c)
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        guard let best, best.distance <= max(2, lower.count / 3) else { return nil }
        return best.name
    }

    /// ` (did you mean 'x'?)` for the closest candidate, or an empty string.
    public static func hint(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
