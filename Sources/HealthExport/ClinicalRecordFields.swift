import HealthSpoolCore

/// The few fields of a FHIR resource (DSTU2 or R4) healthspool reads out of it: its id, the
/// date it is about, a name to show and its status. Both versions' names are tried.
struct ClinicalRecordFields {
    var id: String?
    var date: Timestamp?
    /// The field the date came from (`onsetDateTime`, `effectivePeriod.start`, …).
    var dateField = ""
    var display = ""
    var status: String?

    /// Where each resource keeps its date, most telling first (R4 and DSTU2 names; a field a
    /// resource does not have is simply absent).
    static let datePaths: [[String]] = [
        ["onsetDateTime"], ["effectiveDateTime"], ["effectivePeriod", "start"], ["occurrenceDateTime"],
        ["performedDateTime"], ["performedPeriod", "start"], ["authoredOn"], ["dateWritten"], ["date"],
        ["onsetPeriod", "start"], ["recordedDate"], ["dateRecorded"], ["onset"], ["issued"], ["dateAsserted"],
        ["recorded"], ["meta", "lastUpdated"],
    ]
    /// Where each resource names what it is about (a CodeableConcept or a Reference).
    static let displayPaths = ["code", "medicationCodeableConcept", "vaccineCode", "substance", "medicationReference", "medication"]

    init(_ json: JSONValue, resourceType: String) {
        id = json["id"]?.stringValue.flatMap { $0.isEmpty || $0.count > 128 ? nil : $0 }
        for path in Self.datePaths {
            var v: JSONValue? = json
            for step in path { v = v?[step] }
            if let text = v?.stringValue, let t = Self.fhirDate(text) {
                date = t
                dateField = path.joined(separator: ".")
                break
            }
        }
        for key in Self.displayPaths {
            if let text = Self.display(json[key]), !text.isEmpty { display = text; break }
        }
        status = Self.code(json["clinicalStatus"]) ?? Self.code(json["status"]) ?? Self.code(json["verificationStatus"])
    }

    /// A FHIR date, dateTime or instant: `2019`, `2019-03`, `2019-03-01`, `2019-03-01T10:00:00-05:00`
    /// (a partial date is its first day, UTC).
    static func fhirDate(_ text: String) -> Timestamp? {
        switch text.count {
        case 4 where text.allSatisfy(\.isNumber): TimestampParser.parse(text + "-01-01")
        case 7: TimestampParser.parse(text + "-01")
        default: TimestampParser.parse(text)
        }
    }

    /// A CodeableConcept's text or first coding's display, or a Reference's display.
    static func display(_ v: JSONValue?) -> String? {
        guard let v else { return nil }
        if let text = v["text"]?.stringValue, !text.isEmpty { return text }
        if let text = v["display"]?.stringValue, !text.isEmpty { return text }
        for coding in v["coding"]?.arrayValue ?? [] {
            if let text = coding["display"]?.stringValue, !text.isEmpty { return text }
        }
        return nil
    }

    /// A status as a code: a plain string (DSTU2, and R4's `status`) or a CodeableConcept (R4's
    /// `clinicalStatus`).
    static func code(_ v: JSONValue?) -> String? {
        guard let v else { return nil }
        if let s = v.stringValue { return s.isEmpty ? nil : s }
        for coding in v["coding"]?.arrayValue ?? [] {
            if let c = coding["code"]?.stringValue, !c.isEmpty { return c }
        }
        return v["text"]?.stringValue
    }
}
