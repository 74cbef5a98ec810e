@testable import HealthJournal
import HealthSpoolCore
import Testing

/// A provider's lab value is read out of the stored FHIR resource (R4 and DSTU2 alike), and
/// grouped by test into trends; what is not a number is not a lab reading.
@Suite struct LabReadingTests {
    static let stored = Timestamp(millis: 1_700_000_000_000)

    static func reading(_ json: String) -> LabReading? { LabReading(resource: json, recordDate: stored, provider: "Lakeside Health") }

    @Test func anR4ObservationGivesItsValueUnitDateAndRange() throws {
        let r = try #require(Self.reading("""
            {"resourceType":"Observation","id":"a1c","status":"final","code":{"coding":[{"system":"http://loinc.org","code":"4548-4",
            "display":"Hemoglobin A1c/Hemoglobin.total in Blood"}],"text":"Hemoglobin A1c"},"effectiveDateTime":"2024-10-28T08:12:00-05:00",
            "issued":"2024-10-28T14:03:11.000Z","valueQuantity":{"value":5.9,"unit":"%","system":"http://unitsofmeasure.org","code":"%"},
            "referenceRange":[{"low":{"value":4.0,"unit":"%"},"high":{"value":5.6,"unit":"%"},"text":"4.0 - 5.6 %"}]}
            """))
        #expect(r.name == "Hemoglobin A1c")
        #expect(r.loinc == "4548-4")
        #expect(r.value == 5.9 && r.unit == "%" && r.text == "5.9 %")
        #expect(r.date.iso8601Local == "2024-10-28T08:12:00.000-05:00", "effectiveDateTime, not issued")
        #expect(r.low == 4 && r.high == 5.6)
        #expect(r.provider == "Lakeside Health")
    }

    @Test func aDSTU2ObservationIsReadTheSameWay() throws {
        // DSTU2: category an object, not a list; the coding's display when there is no text; no effective date, only issued.
        let r = try #require(Self.reading("""
            {"resourceType":"Observation","id":"chol","status":"final","category":{"coding":[{"system":"http://hl7.org/fhir/observation-category",
            "code":"laboratory"}]},"code":{"coding":[{"system":"http://loinc.org","code":"2093-3","display":"Cholesterol [Mass/volume] in Serum or Plasma"}]},
            "issued":"2016-08-22T12:00:00Z","valueQuantity":{"value":182,"unit":"mg/dL","system":"http://unitsofmeasure.org","code":"mg/dL"}}
            """))
        #expect(r.name == "Cholesterol [Mass/volume] in Serum or Plasma")
        #expect(r.text == "182 mg/dL")
        #expect(r.date.iso8601UTC.hasPrefix("2016-08-22T12:00:00"))
        #expect(r.low == nil && r.high == nil)
    }

    @Test func anObservationWithoutANumberIsNoLabReading() {
        #expect(Self.reading(#"{"resourceType":"Observation","status":"final","code":{"text":"Blood type"},"valueString":"A+"}"#) == nil)
        #expect(Self.reading(#"{"resourceType":"Observation","status":"final","code":{"text":"Culture"},"valueCodeableConcept":{"text":"No growth"}}"#) == nil)
        #expect(Self.reading(#"{"resourceType":"Observation","status":"final","code":{"text":"Glucose"},"valueQuantity":{"unit":"mg/dL"}}"#) == nil)
        #expect(Self.reading(#"{"resourceType":"Observation","status":"entered-in-error","code":{"text":"Glucose"},"valueQuantity":{"value":90}}"#) == nil)
        #expect(Self.reading(#"{"resourceType":"Condition","code":{"text":"Asthma"},"valueQuantity":{"value":1}}"#) == nil)
        #expect(Self.reading("not json") == nil)
    }

    @Test func aMissingUnitLeavesTheNumberAloneAndTheRecordsDateIsUsed() throws {
        let r = try #require(Self.reading(#"{"resourceType":"Observation","code":{"text":"Specific gravity"},"valueQuantity":{"value":1.02}}"#))
        #expect(r.unit == "")
        #expect(r.text == "1.02")
        #expect(r.date == Self.stored, "no date in the resource: the stored record's")
        let coded = try #require(Self.reading(#"{"resourceType":"Observation","code":{"text":"Potassium"},"valueQuantity":{"value":4.1,"code":"mmol/L"}}"#))
        #expect(coded.text == "4.1 mmol/L", "no unit text: the UCUM code")
        let bound = try #require(Self.reading(#"{"resourceType":"Observation","code":{"text":"CRP"},"valueQuantity":{"value":0.5,"comparator":"<","unit":"mg/L"}}"#))
        #expect(bound.text == "< 0.5 mg/L")
    }

    @Test func readingsAreGroupedByTestOldestFirstAndAGlucoseIsBloodSugar() {
        func lab(_ name: String, _ loinc: String?, _ v: Double, _ unit: String, day: Int64) -> LabReading {
            LabReading(name: name, loinc: loinc, value: v, unit: unit, date: Timestamp(millis: day * 86_400_000), provider: "Valley Clinic")
        }
        let trends = LabTrend.group([
            lab("Glucose", "2345-7", 110, "mg/dL", day: 20_000), lab("Cholesterol", "2093-3", 182, "mg/dL", day: 19_000),
            lab("Glucose [Mass/volume] in Serum", "2345-7", 95, "mg/dL", day: 19_500), lab("Cholesterol", "2093-3", 201, "mg/dL", day: 20_100),
            lab("Glucose", "2345-7", 6.1, "mmol/L", day: 20_200), lab("Hemoglobin A1c", "4548-4", 5.9, "%", day: 20_050),
        ])
        #expect(trends.map { "\($0.name) \($0.unit): \($0.readings.map(\.text).joined(separator: ", "))" } == [
            "Cholesterol mg/dL: 182 mg/dL, 201 mg/dL", "Glucose mg/dL: 95 mg/dL, 110 mg/dL", "Glucose mmol/L: 6.1 mmol/L", "Hemoglobin A1c %: 5.9 %",
        ])
        #expect(trends.map { $0.kind?.rawValue ?? "-" } == ["-", "glucose", "glucose", "-"])
        #expect(abs(trends[2].measured(trends[2].latest) - 109.9) < 0.2, "mmol/L drawn in mg/dL, the stored unit")
        #expect(trends[0].line == "Cholesterol: 201 mg/dL on 2025-01-12, before 182 mg/dL on 2022-01-08 (Valley Clinic)")
    }
}
