import HealthSpoolCore

/// The doctor's summary as its templates show it (`report-body` and the section templates of
/// the web module; the same in the file `healthspool report` writes and on the web's
/// `/report`): plain values, every figure and date already text, the charts' coordinates
/// numbers. A section with no data is nil and left out.
public struct ReportSections: Sendable {
    /// Whose it is (`report.name`), when set.
    public var forName: String?
    /// `Sun 8 Feb 2026 to Mon 9 Mar 2026 (30 days)`.
    public var period: String
    /// When it was made: `10 Mar 2026, 12:00`.
    public var made: String
    /// Nothing was recorded in the period.
    public var isEmpty: Bool
    public var symptoms: Symptoms?
    public var medications: Medications?
    public var measurements: Measurements?
    public var activity: Activity?
    public var ecgs: ECGs?
    public var records: Records?
    public var labs: Labs?
    public var factors: Factors?
    public var notes: Notes?

    /// The sections of `r`.
    public init(_ r: VisitReport) {
        forName = r.name
        period = "\(ReportText.long(r.from)) to \(ReportText.long(r.to)) (\(r.days.count) days)"
        made = ReportText.when(r.made)
        isEmpty = r.isEmpty
        symptoms = Symptoms(r)
        medications = Medications(r)
        measurements = Measurements(r)
        activity = Activity(r)
        ecgs = ECGs(r)
        records = Records(r)
        labs = Labs(r)
        factors = Factors(r)
        notes = Notes(r)
    }
}
