import HealthSpoolCore

/// The journal's entries as the CLI shows them: one text line a symptom or lifestyle entry,
/// and the JSON object each `--json` listing prints. The commands print these; they format no
/// row themselves.
public enum JournalRows {
    /// The first 8 hex digits of an id: enough to name an entry in `edit` and `delete`.
    public static func shortID(_ id: SampleID) -> String { String(id.description.prefix(8)) }

    /// `HH:MM` of a timestamp in its own offset.
    public static func clock(_ t: Timestamp) -> String { String(t.iso8601Local.dropFirst(11).prefix(5)) }

    public static func line(_ e: SymptomEntry) -> String {
        var parts = ["\(shortID(e.id))  \(e.day) \(clock(e.at))  \(e.timeOfDay.rawValue.padding(9)) \(EscapedText.escape(e.symptom)) (\(EscapedText.escape(e.category))): \(e.severity) (\(e.severity.weight))"]
        if !e.aggravatedBy.isEmpty { parts.append("aggravated by " + e.aggravatedBy.map(EscapedText.escape).joined(separator: ", ")) }
        if !e.relievedBy.isEmpty { parts.append("relieved by " + e.relievedBy.map(EscapedText.escape).joined(separator: ", ")) }
        if let n = e.note { parts.append("note: " + EscapedText.escape(n)) }
        if e.origin == .imported { parts.append("imported") }
        return parts.joined(separator: "; ")
    }

    public static func line(_ e: LifestyleEntry) -> String {
        var parts = ["\(shortID(e.id))  \(e.day) \(clock(e.at))  \(e.timeOfDay.rawValue.padding(9)) \(EscapedText.escape(e.factor))" + (e.measure.map { ": \($0)" } ?? "")]
        if let n = e.note { parts.append("note: " + EscapedText.escape(n)) }
        return parts.joined(separator: "; ")
    }

    public static func json(_ e: SymptomEntry) -> JSONValue {
        .object([
            ("id", .string(e.id.description)), ("symptom", .string(e.symptom)), ("category", .string(e.category)),
            ("at", .string(e.at.iso8601Local)), ("day", .string(e.day.description)), ("timeOfDay", .string(e.timeOfDay.rawValue)),
            ("severity", .string(e.severity.description)), ("weight", .number(Double(e.severity.weight))),
            ("relievedBy", .array(e.relievedBy.map(JSONValue.string))), ("aggravatedBy", .array(e.aggravatedBy.map(JSONValue.string))),
            ("note", e.note.map(JSONValue.string) ?? .null), ("origin", .string(e.origin.rawValue)),
            ("version", .number(Double(e.version))), ("deleted", .bool(e.deleted)), ("partMeant", .bool(e.partMeant)),
        ])
    }

    public static func json(_ e: LifestyleEntry) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(e.id.description)), ("factor", .string(e.factor)), ("at", .string(e.at.iso8601Local)),
            ("day", .string(e.day.description)), ("timeOfDay", .string(e.timeOfDay.rawValue)),
        ]
        switch e.measure {
        case let .amount(v, unit)?: members += [("amount", .number(v)), ("unit", .string(unit))]
        case let .level(l)?: members.append(("level", .string(l.rawValue)))
        case nil: break
        }
        members += [("note", e.note.map(JSONValue.string) ?? .null), ("version", .number(Double(e.version))), ("partMeant", .bool(e.partMeant))]
        return .object(members)
    }

    public static func json(_ s: SymptomScore) -> JSONValue {
        .object([("scope", .string(s.scope.rawValue)), ("name", .string(s.name)), ("score", .number(Double(s.score))),
                 ("entries", .number(Double(s.entries))), ("id", .string(s.id.description))])
    }

    public static func json(_ m: Medication) -> JSONValue {
        .object([("id", .number(Double(m.id))), ("name", .string(m.name)), ("otherNames", .array(m.otherNames.map(JSONValue.string))),
                 ("dose", .string(m.dose)), ("prescriber", .string(m.prescriber)), ("directions", .string(m.directions)),
                 ("times", .array(m.times.map { .string($0.description) }))])
    }

    public static func json(_ d: Dose, _ m: Medication?) -> JSONValue {
        .object([("id", .number(Double(d.id))), ("medicationId", .number(Double(d.medicationID))),
                 ("medication", m.map { .string($0.name) } ?? .null), ("takenAt", .string(d.takenAt.iso8601Local)),
                 ("reminderId", d.reminderID.map { .number(Double($0)) } ?? .null)])
    }

    /// A note, with the path of its recording in `journal`'s notes folder.
    public static func json(_ n: Note, _ journal: HealthJournal) -> JSONValue { json(n, audio: journal.audioPath(n)) }

    /// A note, with the path of its recording (nil: none).
    public static func json(_ n: Note, audio: String?) -> JSONValue {
        .object([("id", .number(Double(n.id))), ("category", .string(n.category)), ("text", .string(n.text)),
                 ("created", .string(n.created.iso8601Local)), ("audio", audio.map(JSONValue.string) ?? .null)])
    }

    public static func json(_ r: Reminder) -> JSONValue {
        .object([("id", .number(Double(r.id))), ("name", .string(r.name)), ("kind", .string(r.kind.rawValue)),
                 ("times", .array(r.times.map { .string($0.description) })), ("rrule", .string(r.rule.description)),
                 ("start", .string(ReminderSchedule.seriesStart(of: r).description)),
                 ("medicationId", r.medicationID.map { .number(Double($0)) } ?? .null)])
    }

    public static func json(_ g: Goal) -> JSONValue {
        .object([("id", .number(Double(g.id))), ("name", .string(g.name)), ("rrule", g.rule.map { .string($0.description) } ?? .null),
                 ("start", .string(g.start.description)), ("type", g.type.map(JSONValue.string) ?? .null),
                 ("target", g.target.map(JSONValue.number) ?? .null)])
    }
}

extension Timestamp {
    /// `2026-03-29 08:00` in the timestamp's own offset: how the CLI's lists write a time.
    public var shortLocal: String {
        let s = iso8601Local
        return String(s.prefix(10)) + " " + String(s.dropFirst(11).prefix(5))
    }
}
