import HealthSpoolCore

/// What export.xml's `ClinicalRecord` element says about one `clinical-records/*.json` file:
/// Apple's record type, its identifier, the provider and when the phone received it.
struct ClinicalRecordLink: Sendable {
    /// `HKClinicalTypeIdentifierConditionRecord`, … (as written).
    var recordType: String = ""
    var identifier: String = ""
    /// The provider (`sourceName`) and its FHIR endpoint (`sourceURL`).
    var sourceName: String = ""
    var sourceURL: String = ""
    /// `1.0.2` (DSTU2) or `4.0.1` (R4), as written.
    var fhirVersion: String = ""
    var receivedDate: Timestamp?

    /// A file no `ClinicalRecord` element names.
    static let unlinked = ClinicalRecordLink()
}
