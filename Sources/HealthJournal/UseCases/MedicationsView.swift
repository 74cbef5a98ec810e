import HealthSpoolCore

/// What the web's medications page and `healthspool med list` show, read on one store
/// connection: the medications and the doses taken today with their medication (nil: the
/// medication was removed since). The command prints `text` or `json` (the medications); the
/// page lists the same medications with today's doses.
public struct MedicationsView: Sendable {
    public var medications: [Medication]
    public var dosesToday: [(dose: Dose, medication: Medication?)]

    /// The terminal form: a line a medication with its id, name, other names, dose, times,
    /// directions and prescriber; a hint when there is none.
    public var text: String {
        if medications.isEmpty { return "no medications; add one with: healthspool med add NAME --dose \"400 mg\"" }
        return medications.map { m in
            var line = "\(m.id)  \(m.name)"
            if !m.otherNames.isEmpty { line += " (\(m.otherNames.joined(separator: ", ")))" }
            if !m.dose.isEmpty { line += "  \(m.dose)" }
            if !m.times.isEmpty { line += "  at \(m.times.map(\.description).joined(separator: ", "))" }
            if !m.directions.isEmpty { line += "  — \(m.directions)" }
            if !m.prescriber.isEmpty { line += "  [\(m.prescriber)]" }
            return line
        }.joined(separator: "\n")
    }

    /// The medications as `--json` lists them.
    public var json: JSONValue { .array(medications.map(JournalRows.json)) }
}

extension HealthJournal {
    /// The medications and today's doses as of `now`.
    public func medicationsView(now: Timestamp) throws -> MedicationsView {
        MedicationsView(medications: try medications(), dosesToday: try doses(on: day(nil, now: now)).map { ($0.0, $0.1) })
    }
}
