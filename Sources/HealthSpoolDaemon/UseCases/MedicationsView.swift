import HealthSpoolCore

/// What the web's medications page shows, read on one store connection: the medications and the
/// doses taken today with their medication (nil: the medication was removed since).
public struct MedicationsView: Sendable {
    public var medications: [Medication]
    public var dosesToday: [(dose: Dose, medication: Medication?)]
}

extension HealthJournal {
    /// The medications and today's doses as of `now`.
    public func medicationsView(now: Timestamp) throws -> MedicationsView {
        MedicationsView(medications: try medications(), dosesToday: try doses(on: day(nil, now: now)).map { ($0.0, $0.1) })
    }
}
