import HealthSpoolCore
import HealthSpoolStore

/// What a person's providers sent to the phone (stored `clinicalRecord` samples), as lists:
/// conditions, allergies, the providers' medications and immunizations, newest first. Read for
/// the records page (`/records`) and the doctor's summary, each list left out when empty.
public struct HealthRecords: Sendable {
    /// One record, as a line of a list.
    public struct Item: Sendable {
        /// What it is about (`Essential hypertension`), else its resource type.
        public var name: String
        public var date: Timestamp
        /// `active`, `resolved`, `completed`, … as the provider wrote it.
        public var status: String?
        public var provider: String
        public var resourceType: String
    }

    public var conditions: [Item] = []
    public var allergies: [Item] = []
    public var medications: [Item] = []
    public var immunizations: [Item] = []
    /// Lab values (`Observation`s with a number), by test, read from the stored resources (`LabTrend`).
    public var labs: [LabTrend] = []
    /// Hearing tests and vision prescriptions (`HealthRecords+HearingVision`), not in `lists`.
    public var audiograms: [Audiogram] = []
    public var prescriptions: [Prescription] = []

    /// No provider record (audiograms and prescriptions aside).
    public var isEmpty: Bool { conditions.isEmpty && allergies.isEmpty && medications.isEmpty && immunizations.isEmpty && labs.isEmpty }

    /// The lists, each with its title, in the order they are shown (empty ones too).
    public var lists: [(title: String, id: String, items: [Item])] {
        [("Conditions", "conditions", conditions), ("Allergies", "allergies", allergies),
         ("Medications from your providers", "provider-medications", medications), ("Immunizations", "immunizations", immunizations)]
    }

    /// Every stored record (a person's conditions and allergies hold whatever their date).
    public static func read(_ store: SampleStore) throws -> HealthRecords {
        var r = HealthRecords()
        var labs: [LabReading] = []
        for s in try store.recordings(type: "clinicalRecord", from: Int64.min / 2, to: Int64.max / 2).reversed() {
            let type = s.metadata["resourceType"] ?? ""
            let item = Item(name: s.metadata["display"].flatMap { $0.isEmpty ? nil : $0 } ?? type, date: s.start,
                            status: s.metadata["status"], provider: s.source, resourceType: type)
            switch type {
            case "Condition": r.conditions.append(item)
            case "AllergyIntolerance": r.allergies.append(item)
            case "MedicationStatement", "MedicationRequest", "MedicationOrder": r.medications.append(item)
            case "Immunization": r.immunizations.append(item)
            case "Observation":
                if let lab = LabReading(resource: s.metadata["resource"] ?? "", recordDate: s.start, provider: s.source) { labs.append(lab) }
            default: break
            }
        }
        r.labs = LabTrend.group(labs)
        try r.readHearingAndVision(store)
        return r
    }

    /// The terminal lines and the JSON form share this one line per item.
    public static func line(_ i: Item) -> String {
        "\(i.name) (\(i.date.iso8601Local.prefix(10))\(i.status.map { ", " + $0 } ?? ""); \(i.provider))"
    }
}
