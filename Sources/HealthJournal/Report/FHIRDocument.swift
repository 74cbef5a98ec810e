import HealthSpoolCore

/// The doctor's summary as one FHIR R4 `Bundle` of type `document`, shaped as an International
/// Patient Summary (`healthspool report --fhir`, the web's "FHIR file"): a `Composition` first,
/// with its sections (vital signs, medications, allergies, problems, results, symptom history,
/// activity and sleep), the `Patient` (only the name the person typed, `report.name`) and every
/// resource the sections name. Made from the same `VisitReport` as the printed summary, plus the
/// other vital signs (`VisitReports.otherVitalKinds`). Ids are stable (`FHIRIdentity`, a sample's
/// own id where there is one): the same period exported again replaces what a receiver holds.
///
/// The provider's clinical records are stored but not carried here yet (their references name
/// the provider's Patient, which the document does not hold): `clinicalEntries` is where R4
/// ones join, in the problems, allergies, medications and results sections.
public struct FHIRDocument: Sendable {
    public var report: VisitReport
    /// Vital signs beyond the summary's own measurements.
    public var otherVitals: [MeasurementFigures]
    /// Names the person in the ids (`Configuration.fhirPatientKey`).
    public var patientKey: String
    /// The journal's zone: days' bounds.
    public var zone: ZoneRules
    /// Resources carried through as they came (clinical records, ECGs): none yet.
    public var clinicalEntries: [(section: Section, resource: JSONValue)] = []

    /// The IPS sections, in order: LOINC code and title.
    public enum Section: String, CaseIterable, Sendable {
        case vitalSigns, medications, allergies, problems, results, symptoms, activity

        public var code: String {
            switch self {
            case .vitalSigns: "8716-3"
            case .medications: "10160-0"
            case .allergies: "48765-2"
            case .problems: "11450-4"
            case .results: "30954-2"
            case .symptoms: "10164-2"
            case .activity: "47420-5"
            }
        }

        public var display: String {
            switch self {
            case .vitalSigns: "Vital signs"
            case .medications: "History of Medication use Narrative"
            case .allergies: "Allergies and adverse reactions Document"
            case .problems: "Problem list - Reported"
            case .results: "Relevant diagnostic tests/laboratory data Narrative"
            case .symptoms: "History of Present illness Narrative"
            case .activity: "Functional status assessment note"
            }
        }

        public var title: String {
            switch self {
            case .vitalSigns: "Vital signs"
            case .medications: "Medications"
            case .allergies: "Allergies and intolerances"
            case .problems: "Problems"
            case .results: "Results"
            case .symptoms: "Symptom history"
            case .activity: "Activity and sleep"
            }
        }

        /// What an empty section says (healthspool keeps no allergy or problem list).
        var emptyText: String {
            switch self {
            case .allergies: "No information: healthspool keeps no list of allergies."
            case .problems: "No information: healthspool keeps no list of problems."
            case .medications: "No medications were entered in the journal."
            default: "Nothing recorded in this period."
            }
        }
    }

    public init(report: VisitReport, otherVitals: [MeasurementFigures], patientKey: String, zone: ZoneRules) {
        self.report = report
        self.otherVitals = otherVitals
        self.patientKey = patientKey
        self.zone = zone
    }

    var patientID: SampleID { FHIRIdentity.id("patient:" + patientKey) }
    var period: String { "\(report.from):\(report.to)" }

    /// The bundle, as JSON.
    public var bundle: JSONValue {
        var sections: [Section: [(id: SampleID, resource: JSONValue)]] = [:]
        var narrative: [Section: [String]] = [:]
        func add(_ s: Section, _ id: SampleID, _ r: JSONValue) { sections[s, default: []].append((id, r)) }
        for m in report.measurements + otherVitals {
            let s: Section = m.kind == "bloodGlucose" ? .results : .vitalSigns
            for (id, r) in measurementObservations(m) { add(s, id, r) }
            narrative[s, default: []].append("\(m.title): \(m.count) reading\(m.count == 1 ? "" : "s")")
        }
        for (id, r) in activityObservations() { add(.activity, id, r) }
        if let a = report.activity {
            narrative[.activity, default: []].append("Steps and sleep on \(a.days.filter { $0.steps != nil || $0.asleepMinutes != nil }.count) days")
        }
        for e in report.symptomEntries { add(.symptoms, e.id, symptomObservation(e)) }
        for c in report.symptoms {
            narrative[.symptoms, default: []].append("\(c.category.name): \(c.category.entries) entries on \(c.category.days) days, highest daily score \(c.category.highest)")
        }
        for m in report.medications {
            let (id, r) = medicationStatement(m)
            add(.medications, id, r)
            narrative[.medications, default: []].append(([m.name, m.dose].filter { !$0.isEmpty }.joined(separator: " ")) + adherenceText(m))
        }
        for c in clinicalEntries {
            let id = c.resource["id"]?.stringValue.flatMap(SampleID.init(string:)) ?? FHIRIdentity.id("clinical:\(c.resource)")
            add(c.section, id, c.resource)
        }
        let composition = compositionResource(sections: sections, narrative: narrative)
        var entries: [JSONValue] = [entry(FHIRIdentity.id("composition:\(patientKey):\(period)"), composition),
                                    entry(patientID, patientResource)]
        for s in Section.allCases { for (id, r) in sections[s] ?? [] { entries.append(entry(id, r)) } }
        let bundleID = FHIRIdentity.id("bundle:\(patientKey):\(period)")
        return .object([
            ("resourceType", .string("Bundle")), ("id", .string(bundleID.description)),
            ("identifier", .object([("system", .string("urn:ietf:rfc:3986")), ("value", .string("urn:uuid:\(bundleID)"))])),
            ("type", .string("document")), ("timestamp", FHIRJSON.dateTime(report.made)), ("entry", .array(entries)),
        ])
    }

    func entry(_ id: SampleID, _ resource: JSONValue) -> JSONValue {
        .object([("fullUrl", .string("urn:uuid:\(id)")), ("resource", resource)])
    }

    /// The Patient: an id and the name typed for the summary, nothing else.
    var patientResource: JSONValue {
        let name: JSONValue = report.name.map { .object([("text", .string($0))]) } ?? .object([("extension", .array([.object([
            ("url", .string("http://hl7.org/fhir/StructureDefinition/data-absent-reason")), ("valueCode", .string("unknown")),
        ])]))])
        return .object([("resourceType", .string("Patient")), ("id", .string(patientID.description)), ("name", .array([name]))])
    }

    func compositionResource(sections: [Section: [(id: SampleID, resource: JSONValue)]], narrative: [Section: [String]]) -> JSONValue {
        let id = FHIRIdentity.id("composition:\(patientKey):\(period)")
        let patient = FHIRJSON.reference(patientID, display: report.name)
        let list: [JSONValue] = Section.allCases.compactMap { s in
            let entries = sections[s] ?? []
            if entries.isEmpty, s == .symptoms || s == .activity { return nil }
            var m: [(String, JSONValue)] = [("title", .string(s.title)),
                                            ("code", FHIRJSON.concept([FHIRJSON.coding(FHIRMapping.loinc, s.code, s.display)])),
                                            ("text", FHIRJSON.narrative(entries.isEmpty ? [s.emptyText] : narrative[s] ?? []))]
            if entries.isEmpty {
                m.append(("emptyReason", FHIRJSON.concept([FHIRJSON.coding("http://terminology.hl7.org/CodeSystem/list-empty-reason",
                                                                           s == .allergies || s == .problems ? "unavailable" : "nilknown",
                                                                           s == .allergies || s == .problems ? "Unavailable" : "Nil Known")])))
            } else {
                m.append(("entry", .array(entries.map { FHIRJSON.reference($0.id) })))
            }
            return .object(m)
        }
        let title = "Patient summary, \(report.from) to \(report.to)" + (report.name.map { " (\($0))" } ?? "")
        return .object([
            ("resourceType", .string("Composition")), ("id", .string(id.description)), ("status", .string("final")),
            ("type", FHIRJSON.concept([FHIRJSON.coding(FHIRMapping.loinc, "60591-5", "Patient summary Document")])),
            ("subject", patient), ("date", FHIRJSON.dateTime(report.made)), ("author", .array([patient])), ("title", .string(title)),
            ("event", .array([.object([("period", .object([("start", .string(report.from.description)),
                                                           ("end", .string(report.to.description))]))])])),
            ("section", .array(list)),
        ])
    }
}
