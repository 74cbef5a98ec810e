/// FHIR R4 Observations of samples and journal entries, by `FHIRMapping`: what the doctor's FHIR
/// file holds and what the gateway's `fhir` formats send, one resource per sample. The id is
/// the sample's (its UUID), so a resource sent or exported again replaces its earlier copy.
public enum FHIRObservation {
    /// Whose the observation is.
    public enum Subject: Sendable {
        /// A Patient of the same bundle.
        case patient(SampleID)
        /// The gateway's user id (`user.id`), as an identifier: the receiver keeps its patients.
        case user(String)

        /// The `subject` element.
        public var json: JSONValue {
            switch self {
            case .patient(let id): FHIRJSON.reference(id)
            case .user(let u): .object([("identifier", .object([("system", .string(userSystem)), ("value", .string(u))]))])
            }
        }
    }

    /// The identifier system of `Subject.user`.
    public static let userSystem = "urn:healthspool:fhir:user-id"
    /// healthspool's severity codes (all four journal severities).
    public static let severitySystem = "urn:healthspool:fhir:severity"
    /// SNOMED CT, for the severities it has a code for.
    public static let snomed = "http://snomed.info/sct"
    /// SNOMED CT's mild, moderate and severe (debilitating has no code of its own there).
    static let snomedSeverity: [Severity: (String, String)] = [
        .mild: ("255604002", "Mild"), .moderate: ("6736007", "Moderate"), .severe: ("24484000", "Severe"),
    ]

    /// A sample of `type` (stored `value` in stored `unit`) from `start` to `end` as an Observation.
    /// `source` is the app or device that recorded it.
    public static func sample(id: SampleID, type: String, value: Double, unit: String, start: Timestamp, end: Timestamp,
                              source: String?, subject: Subject) -> JSONValue {
        let c = FHIRMapping.concept(for: type, unit: unit)
        var m = head(id: id, concept: c, subject: subject)
        m.append(effective(start, end))
        if let source, !source.isEmpty { m.append(("device", .object([("display", .string(source))]))) }
        let ucum = FHIRMapping.ucumCode(unit) == nil && !c.isLOINC ? nil : c.unit
        if value.isFinite {
            m.append(("valueQuantity", FHIRJSON.quantity(value * c.factor, ucum: ucum, unitText: ucum == nil ? unit : nil)))
        } else {
            // JSON has no NaN or infinity: the value is said to be missing, as FHIR says it.
            m.append(("dataAbsentReason", FHIRJSON.concept([FHIRJSON.coding("http://terminology.hl7.org/CodeSystem/data-absent-reason",
                                                                            "not-a-number", "Not a Number (NaN)")])))
        }
        return .object(m)
    }

    /// A journal's symptom entry as an Observation: the symptom as the code's text, its severity
    /// as the value (healthspool's code, with SNOMED CT's where it has one), its category, the
    /// factors and the note as notes.
    public static func symptom(id: SampleID, name: String, category: String, severity: Severity, at: Timestamp,
                               relievedBy: [String], aggravatedBy: [String], note: String?, subject: Subject) -> JSONValue {
        var m: [(String, JSONValue)] = [("resourceType", .string("Observation")), ("id", .string(id.description)),
                                        ("status", .string("final")),
                                        ("category", .array([FHIRJSON.category("survey"), FHIRJSON.concept([], text: category)])),
                                        ("code", FHIRJSON.code(FHIRMapping.concept(for: JournalType.symptomEntry), text: name)),
                                        ("subject", subject.json), ("effectiveDateTime", FHIRJSON.dateTime(at))]
        var codings = [FHIRJSON.coding(severitySystem, severity.description, severity.description.capitalizedFirst)]
        if let s = snomedSeverity[severity] { codings.append(FHIRJSON.coding(snomed, s.0, s.1)) }
        m.append(("valueCodeableConcept", FHIRJSON.concept(codings, text: severity.description)))
        var notes: [String] = []
        if !relievedBy.isEmpty { notes.append("Relieved by: " + relievedBy.joined(separator: ", ")) }
        if !aggravatedBy.isEmpty { notes.append("Aggravated by: " + aggravatedBy.joined(separator: ", ")) }
        if let note, !note.isEmpty { notes.append(note) }
        if !notes.isEmpty { m.append(("note", .array(notes.map { .object([("text", .string($0))]) }))) }
        return .object(m)
    }

    /// A journal record as the gateway queues it (`JournalRecord`: type, value, unit, the
    /// metadata's JSON text) as an Observation: a symptom entry by `symptom`, a daily score or a
    /// lifestyle factor with its name as the code's text.
    public static func journalRecord(id: SampleID, type: String, value: Double, unit: String, start: Timestamp, end: Timestamp,
                                     metadata: String, subject: Subject) -> JSONValue {
        let meta = (try? JSONParser.parse(metadata)) ?? .object([])
        func strings(_ key: String) -> [String] { meta[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        if type == JournalType.symptomEntry {
            let severity = meta["severity"]?.stringValue.flatMap(Severity.init(parsing:)) ?? Severity(rawValue: Int(value)) ?? .mild
            return symptom(id: id, name: meta["symptom"]?.stringValue ?? "symptom", category: meta["category"]?.stringValue ?? "general",
                           severity: severity, at: start, relievedBy: strings("relievedBy"), aggravatedBy: strings("aggravatedBy"),
                           note: meta["note"]?.stringValue, subject: subject)
        }
        let c = FHIRMapping.concept(for: type, unit: unit)
        let name = meta["factor"]?.stringValue ?? meta["symptom"]?.stringValue ?? meta["category"]?.stringValue
        var m = head(id: id, concept: c, subject: subject, text: name)
        m.append(effective(start, end))
        m.append(("valueQuantity", FHIRJSON.quantity(value, ucum: FHIRMapping.ucumCode(unit), unitText: unit)))
        if let note = meta["note"]?.stringValue, !note.isEmpty { m.append(("note", .array([.object([("text", .string(note))])]))) }
        return .object(m)
    }

    /// `resourceType`, `id`, `status`, `category`, `code`, `subject`.
    static func head(id: SampleID, concept c: FHIRMapping.Concept, subject: Subject, text: String? = nil) -> [(String, JSONValue)] {
        [("resourceType", .string("Observation")), ("id", .string(id.description)), ("status", .string("final")),
         ("category", .array([FHIRJSON.category(c.category)])), ("code", FHIRJSON.code(c, text: text)), ("subject", subject.json)]
    }

    /// `effectiveDateTime` for an instant, `effectivePeriod` for an interval.
    static func effective(_ start: Timestamp, _ end: Timestamp) -> (String, JSONValue) {
        end.millis == start.millis ? ("effectiveDateTime", FHIRJSON.dateTime(start)) : ("effectivePeriod", FHIRJSON.period(start, end))
    }
}

extension String {
    /// The first letter in capitals (`mild` → `Mild`).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
