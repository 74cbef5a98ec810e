import HealthSpoolCore

/// The summary of one import as `healthspool import` shows it, in text and in JSON.
extension ImportSummary {
    /// What `healthspool import` prints for the file: the outcome and counts, a table by type,
    /// what was not read, the error and every kind of problem with its first examples.
    public var text: String {
        if outcome == .unchanged {
            return "\(EscapedText.escape(file)): unchanged, identical to a file imported before; nothing new to store"
        }
        var lines = ["\(EscapedText.escape(file)): \(outcome.rawValue)\(format.map { " (\($0))" } ?? ""), \(result.new) new, \(result.duplicates) duplicate, \(result.revised) revised, \(skipped.values.reduce(0, +)) skipped in \(durationMillis) ms"]
        let types = Set(result.gained.keys).union(result.duplicatesByType.keys).union(skipped.keys).sorted()
        if !types.isEmpty {
            let width = max(28, types.map(\.count).max() ?? 0)
            lines.append("  \(TextTable.pad("TYPE", width)) \("NEW".leftPad(5)) \("DUPLICATE".leftPad(10)) \("SKIPPED".leftPad(8))")
            for t in types {
                let new = result.gained[t] ?? 0, dup = result.duplicatesByType[t] ?? 0, skip = skipped[t] ?? 0
                lines.append("  \(TextTable.pad(t, width)) \(String(new).leftPad(5)) \(String(dup).leftPad(10)) \(String(skip).leftPad(8))")
            }
        }
        if result.late > 0 { lines.append("  \(result.late) late: older than the newest already stored for their type and source, stored and sent like any other") }
        if let line = deletions?.line { lines.append("  " + line) }
        if !notRead.isEmpty { lines.append("  not read: \(ImportSummary.list(notRead))") }
        if let r = reason, outcome != .unchanged { lines.append("  error: \(r)") }
        if !problemKinds.isEmpty {
            for k in problemKinds {
                lines.append("    \(k.count) × \(k.kind)")
                for e in k.examples { lines.append("        e.g. \(e.description)") }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The summary as `healthspool import --json` prints it (one element of its array).
    public var json: JSONValue {
        func dict(_ d: [String: Int]) -> JSONValue { .object(d.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }) }
        return .object([
            ("file", .string(file)), ("format", format.map(JSONValue.string) ?? .null), ("outcome", .string(outcome.rawValue)),
            ("new", .number(Double(result.new))), ("duplicates", .number(Double(result.duplicates))),
            ("revised", .number(Double(result.revised))), ("skipped", .number(Double(skipped.values.reduce(0, +)))),
            ("late", .number(Double(result.late))),
            ("deletedOnPhone", .number(Double(deletions?.marked ?? 0))), ("deletionsWaiting", .number(Double(deletions?.waiting ?? 0))),
            ("newByType", dict(result.gained)), ("duplicatesByType", dict(result.duplicatesByType)), ("skippedByType", dict(skipped)),
            ("durationMs", .number(Double(durationMillis))), ("reason", reason.map(JSONValue.string) ?? .null),
            ("problems", .array(problems.map(JSONValue.string))),
            ("problemCount", .number(Double(problemCount))),
            ("problemKinds", .array(problemKinds.map { k in
                .object([("kind", .string(k.kind)), ("count", .number(Double(k.count))),
                         ("examples", .array(k.examples.map { JSONValue.string($0.description) }))])
            })),
            ("notRead", dict(notRead)),
        ])
    }
}

extension String {
    /// Right-aligned in `width` columns (not cut when longer).
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
