/// The registry names of the journal's records, as they are queued and sent.
public enum JournalType {
    /// A symptom entry: value = severity weight (1–4).
    public static let symptomEntry = "symptomEntry"
    /// A daily symptom score: value = the score.
    public static let symptomScore = "symptomScore"
    /// A lifestyle factor entry: value = the amount, or the level's number.
    public static let lifestyleEntry = "lifestyleEntry"

    public static let all = [symptomEntry, symptomScore, lifestyleEntry]
    /// The source every journal record carries.
    public static let source = SampleSource(name: "healthspool journal")
}

/// A journal entry or score as a record for the gateway: what goes into the store's queue.
/// Its id is the entry's (or score's) stable id; `version` grows with each edit; a deleted
/// entry goes out once more as a tombstone (`deleted`).
public struct JournalRecord: Sendable, Equatable {
    public var id: SampleID
    public var type: String
    public var value: Double
    public var unit: String
    public var start: Timestamp
    public var end: Timestamp
    /// The metadata as JSON object text (lists as arrays).
    public var metadata: String
    public var version: Int
    public var deleted: Bool

    public init(_ e: SymptomEntry) {
        id = e.id
        type = JournalType.symptomEntry
        value = Double(e.severity.weight)
        unit = "severity"
        start = e.at
        end = e.at
        var w = JSONWriter(capacity: 256)
        w.raw("{\"symptom\":"); w.string(e.symptom)
        w.raw(",\"category\":"); w.string(e.category)
        w.raw(",\"severity\":"); w.string(e.severity.description)
        w.raw(",\"timeOfDay\":"); w.string(e.timeOfDay.rawValue)
        w.raw(",\"relievedBy\":"); Self.list(e.relievedBy, &w)
        w.raw(",\"aggravatedBy\":"); Self.list(e.aggravatedBy, &w)
        if let note = e.note { w.raw(",\"note\":"); w.string(note) }
        w.raw(",\"origin\":"); w.string(e.origin.rawValue)
        w.raw(",\"day\":"); w.string(e.day.description)
        w.raw("}")
        metadata = w.text
        version = e.version
        deleted = e.deleted
    }

    public init(_ e: LifestyleEntry) {
        id = e.id
        type = JournalType.lifestyleEntry
        switch e.measure {
        case let .amount(v, u)?: value = v; unit = u
        case let .level(l)?: value = Double(l.number); unit = "level"
        case nil: value = 1; unit = "count"
        }
        start = e.at
        end = e.at
        var w = JSONWriter(capacity: 192)
        w.raw("{\"factor\":"); w.string(e.factor)
        w.raw(",\"timeOfDay\":"); w.string(e.timeOfDay.rawValue)
        if case let .level(l)? = e.measure { w.raw(",\"level\":"); w.string(l.description) }
        if let note = e.note { w.raw(",\"note\":"); w.string(note) }
        w.raw(",\"day\":"); w.string(e.day.description)
        w.raw("}")
        metadata = w.text
        version = e.version
        deleted = e.deleted
    }

    /// A day's score; `bounds` are the day's instants in the user's zone, `offset` its offset at the start.
    public init(_ s: SymptomScore, bounds: Range<Int64>, zone: some OffsetRules, version: Int) {
        id = s.id
        type = JournalType.symptomScore
        value = Double(s.score)
        unit = "score"
        start = LocalDay.timestamp(bounds.lowerBound, in: zone)
        end = LocalDay.timestamp(bounds.upperBound, in: zone)
        var w = JSONWriter(capacity: 128)
        w.raw("{\"day\":"); w.string(s.day.description)
        w.raw(",\"scope\":"); w.string(s.scope.rawValue)
        w.raw(",\"name\":"); w.string(s.name)
        w.raw(",\"entries\":"); w.number(Int64(s.entries))
        w.raw("}")
        metadata = w.text
        self.version = version
        deleted = false
    }

    private static func list(_ items: [String], _ w: inout JSONWriter) {
        w.raw("[")
        for (i, s) in items.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(s)
        }
        w.raw("]")
    }
}
