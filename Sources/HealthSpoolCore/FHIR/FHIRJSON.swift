/// Small builders of FHIR R4 JSON values (`JSONValue`, members in FHIR's order), shared by the
/// doctor's FHIR file and the gateway's `fhir` formats.
public enum FHIRJSON {
    /// A coding.
    public static func coding(_ system: String, _ code: String, _ display: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("system", .string(system)), ("code", .string(code))]
        if let display { m.append(("display", .string(display))) }
        return .object(m)
    }

    /// A CodeableConcept of `codings`, with `text` when given.
    public static func concept(_ codings: [JSONValue], text: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = []
        if !codings.isEmpty { m.append(("coding", .array(codings))) }
        if let text { m.append(("text", .string(text))) }
        return .object(m)
    }

    /// The concept's code as a CodeableConcept.
    public static func code(_ c: FHIRMapping.Concept, text: String? = nil) -> JSONValue {
        concept([coding(c.system, c.code, c.display)], text: text)
    }

    /// An Observation category.
    public static func category(_ code: String) -> JSONValue {
        let display = ["vital-signs": "Vital Signs", "activity": "Activity", "laboratory": "Laboratory", "survey": "Survey",
                       "exam": "Exam"][code]
        return concept([coding(FHIRMapping.categorySystem, code, display)])
    }

    /// A Quantity in `ucum` (a UCUM code), or with the unit as text only when `ucum` is nil.
    public static func quantity(_ value: Double, ucum: String?, unitText: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("value", .number(rounded(value)))]
        if let ucum {
            m += [("unit", .string(unitText ?? ucum)), ("system", .string(FHIRMapping.ucum)), ("code", .string(ucum))]
        } else if let unitText, !unitText.isEmpty {
            m.append(("unit", .string(unitText)))
        }
        return .object(m)
    }

    /// `value` to at most four decimals (converted units carry no false precision).
    public static func rounded(_ v: Double) -> Double {
        guard v.isFinite, abs(v) < 1e12 else { return v }
        return (v * 10_000).rounded() / 10_000
    }

    /// A reference to a resource of the bundle (`urn:uuid:…`).
    public static func reference(_ id: SampleID, display: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("reference", .string("urn:uuid:\(id)"))]
        if let display { m.append(("display", .string(display))) }
        return .object(m)
    }

    /// An instant's dateTime (`2026-11-20T08:00:00.000+01:00`).
    public static func dateTime(_ t: Timestamp) -> JSONValue { .string(t.iso8601Local) }

    /// A Period.
    public static func period(_ start: Timestamp, _ end: Timestamp) -> JSONValue {
        .object([("start", dateTime(start)), ("end", dateTime(end))])
    }

    /// A narrative generated from `lines` (escaped), one paragraph each.
    public static func narrative(_ lines: [String]) -> JSONValue {
        let body = lines.map { "<p>" + escape($0) + "</p>" }.joined()
        return .object([("status", .string("generated")),
                        ("div", .string("<div xmlns=\"http://www.w3.org/1999/xhtml\">" + (body.isEmpty ? "<p>None.</p>" : body) + "</div>"))])
    }

    /// `text` with `&`, `<` and `>` escaped for XHTML.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}

/// Stable ids for resources that are not one sample (a day's summary, a medication, the
/// patient): a version-8 UUID from the SHA-256 of a name, so the same thing exported again has
/// the same id and replaces the copy a receiver holds instead of doubling it.
public enum FHIRIdentity {
    /// The id of `name` (`observation:stepsPerDay:2026-11-20`).
    public static func id(_ name: String) -> SampleID {
        var digest = SHA256.hash(Array(("healthspool-fhir:" + name).utf8))
        digest[6] = (digest[6] & 0x0F) | 0x80   // version 8: custom
        digest[8] = (digest[8] & 0x3F) | 0x80   // RFC 4122 variant
        return SampleID(bytes: Array(digest.prefix(16)))
    }
}
