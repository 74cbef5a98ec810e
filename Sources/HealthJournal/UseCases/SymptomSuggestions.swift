import HealthSpoolCore

extension HealthJournal {
    /// Symptoms offered when nothing is logged yet and the journal has no categories.
    public static let commonSymptoms = ["Headache", "Tiredness", "Dizziness", "Nausea", "Back pain", "Shortness of breath"]

    /// The symptoms to offer as buttons: the user's most logged (recent entries first, then
    /// their journal's symptoms), filled up with common ones, at most `limit`, without case
    /// duplicates.
    public func suggestedSymptoms(limit: Int = 8) throws -> [String] {
        let recent = try symptoms(on: nil)
        var counts: [String: (name: String, count: Int, first: Int)] = [:]
        for (i, e) in recent.enumerated() where !e.deleted {
            let key = e.symptom.lowercased()
            let old = counts[key] ?? (e.symptom, 0, i)
            counts[key] = (old.name, old.count + 1, old.first)
        }
        var out = counts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.first < $1.first }.map(\.name)
        for name in try categories().flatMap(\.symptoms) + Self.commonSymptoms
        where !out.contains(where: { $0.lowercased() == name.lowercased() }) {
            out.append(name)
        }
        return Array(out.prefix(limit))
    }
}
