import HealthSpoolCore

/// A lab value a provider sent, read out of a stored clinical record (`clinicalRecord`) at the
/// time it is shown: an `Observation` with a number (`valueQuantity`, the same shape in FHIR
/// DSTU2 and R4). The record itself stays as stored, byte for byte; nothing here is written.
public struct LabReading: Sendable, Equatable {
    /// What was measured, as the provider names it (`code.text`, else the first coding's display).
    public var name: String
    /// The LOINC code when the provider gave one (`2345-7`).
    public var loinc: String?
    public var value: Double
    /// `<` or `>` when the lab gave a bound, not a value (`valueQuantity.comparator`).
    public var comparator: String?
    /// As written (`unit`, else the UCUM `code`); empty when the record has none.
    public var unit: String
    /// When the sample was taken (`effectiveDateTime`, `effectivePeriod.start`, else `issued`, else
    /// the stored record's date).
    public var date: Timestamp
    public var provider: String
    /// The first reference range's bounds, in the value's unit.
    public var low: Double?
    public var high: Double?

    /// The value with its unit as people read it: `5.9 %`, `182 mg/dL`, `< 0.5 mg/L`, `42`.
    public var text: String {
        (comparator.map { $0 + " " } ?? "") + DecimalText.trimmed(value, digits: 2) + (unit.isEmpty ? "" : " " + unit)
    }

    /// The stored record's resource read as a lab value; nil for any other resource, an
    /// Observation without a number (a text result, a panel of components), or one entered in error.
    public init?(resource: String, recordDate: Timestamp, provider: String) {
        guard let json = try? JSONParser.parse(resource), json["resourceType"]?.stringValue == "Observation",
              json["status"]?.stringValue != "entered-in-error",
              let quantity = json["valueQuantity"], let value = quantity["value"]?.doubleValue, value.isFinite
        else { return nil }
        let code = json["code"]
        var loinc: String?
        var display: String?
        for coding in code?["coding"]?.arrayValue ?? [] {
            if loinc == nil, coding["system"]?.stringValue == "http://loinc.org", let c = coding["code"]?.stringValue, !c.isEmpty { loinc = c }
            if display == nil, let d = coding["display"]?.stringValue, !d.isEmpty { display = d }
        }
        guard let name = code?["text"]?.stringValue.flatMap({ $0.isEmpty ? nil : $0 }) ?? display else { return nil }
        self.name = name
        self.loinc = loinc
        self.value = value
        comparator = quantity["comparator"]?.stringValue.flatMap { ["<", "<=", ">", ">="].contains($0) ? $0 : nil }
        unit = (quantity["unit"]?.stringValue).flatMap { $0.isEmpty ? nil : $0 } ?? quantity["code"]?.stringValue ?? ""
        date = Self.date(json["effectiveDateTime"]) ?? Self.date(json["effectivePeriod"]?["start"]) ?? Self.date(json["issued"]) ?? recordDate
        self.provider = provider
        let range = json["referenceRange"]?.arrayValue?.first
        low = range?["low"]?["value"]?.doubleValue
        high = range?["high"]?["value"]?.doubleValue
    }

    public init(name: String, loinc: String? = nil, value: Double, comparator: String? = nil, unit: String, date: Timestamp, provider: String,
                low: Double? = nil, high: Double? = nil) {
        self.name = name
        self.loinc = loinc
        self.value = value
        self.comparator = comparator
        self.unit = unit
        self.date = date
        self.provider = provider
        self.low = low
        self.high = high
    }

    /// A FHIR date or dateTime (`2019`, `2019-03`, `2019-03-01`, `2019-03-01T10:00:00-05:00`; a
    /// partial date is its first day, UTC).
    static func date(_ v: JSONValue?) -> Timestamp? {
        guard let text = v?.stringValue else { return nil }
        switch text.count {
        case 4 where text.allSatisfy(\.isNumber): return TimestampParser.parse(text + "-01-01")
        case 7: return TimestampParser.parse(text + "-01")
        default: return TimestampParser.parse(text)
        }
    }

    /// The reading as `--json` lists it.
    public var json: JSONValue {
        func n(_ v: Double?) -> JSONValue { v.map(JSONValue.number) ?? .null }
        return .object([("date", .string(date.iso8601Local)), ("value", .number(value)), ("comparator", comparator.map(JSONValue.string) ?? .null),
                        ("unit", .string(unit)), ("text", .string(text)), ("provider", .string(provider)), ("low", n(low)), ("high", n(high))])
    }
}
