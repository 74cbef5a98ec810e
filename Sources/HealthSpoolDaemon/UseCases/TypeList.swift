import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// Every data type by category, with its state, delivery frequency, unit and queued count: the
/// use case behind `healthspool types list`.
public enum TypeList {
    /// The list as a table or JSON: each type's state and frequency in `settings`, and its
    /// samples waiting in `queued` (`queuedCounts(storePath:)`).
    public static func report(settings s: Settings, queued: [String: Int], json: Bool) -> String {
        if json {
            var items: [JSONValue] = []
            for t in DataType.all {
                items.append(.object([("name", .string(t.name)), ("hkIdentifier", .string(t.hkIdentifier)),
                                      ("category", .string(t.category.rawValue)), ("unit", .string(t.unit)),
                                      ("enabled", .bool(s.isEnabled(t.name))), ("frequency", .string(s.frequency(of: t.name).rawValue)),
                                      ("sent", .bool(s.isSent(t.name))),
                                      ("notSentReason", s.isEnabled(t.name) && !s.isSent(t.name) ? .string(DataType.localOnlyReasons[t.name] ?? "") : .null),
                                      ("queued", .number(Double(queued[t.name] ?? 0)))]))
            }
            var w = JSONWriter()
            w.value(.array(items))
            return w.text
        }
        // Columns as wide as the longest type name, unit and frequency: aligned across categories.
        let name = DataType.all.map(\.name.count).max() ?? 0, unit = DataType.all.map(\.unit.count).max() ?? 0
        let frequency = DeliveryFrequency.allCases.map(\.rawValue.count).max() ?? 0
        var lines: [String] = []
        for category in DataCategory.allCases {
            lines.append("\(category.displayName) (\(category.rawValue))")
            for t in category.dataTypes {
                let state = s.isEnabled(t.name) ? "on " : "off"
                let q = queued[t.name].map { "  \($0) queued" } ?? ""
                // A local-only type says why it is not sent, on its line.
                var why = ""
                if s.isEnabled(t.name), !s.isSent(t.name), let reason = DataType.localOnlyReasons[t.name] {
                    why = "  (kept here, not sent: \(reason): healthspool types enable \(t.name))"
                }
                lines.append("  \(state) \(TextTable.pad(t.name, name))  \(TextTable.pad(s.frequency(of: t.name).rawValue, frequency))  \(TextTable.pad(t.unit, unit))  \(t.hkIdentifier)\(q)\(why)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Samples waiting to be sent, by type (none when there is no store yet or it cannot be read).
    public static func queuedCounts(storePath: String) -> [String: Int] {
        guard FileSystem.exists(storePath) else { return [:] }
        return (try? SampleStore(path: storePath).queuedCounts()) ?? [:]
    }
}
