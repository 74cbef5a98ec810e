import Testing
@testable import HealthSpoolCore

@Suite struct MeasurementLimitsTests {
    let t = Timestamp(seconds: 1_774_000_000, utcOffsetSeconds: 3600)

    @Test func bloodPressureIsTwoSamplesSharingACorrelationID() throws {
        let s = try ManualMeasurement.bloodPressure(systolic: 128, diastolic: 82).samples(at: t)
        #expect(s.map(\.type) == ["bloodPressureSystolic", "bloodPressureDiastolic"])
        #expect(s[0].metadata["HKCorrelationID"] == s[1].metadata["HKCorrelationID"])
        #expect(s[0].metadata["HKCorrelationID"] != nil)
        let other = try ManualMeasurement.bloodPressure(systolic: 130, diastolic: 82).samples(at: t)
        #expect(other[0].metadata["HKCorrelationID"] != s[0].metadata["HKCorrelationID"])
    }

    @Test func glucoseInMillimolesIsStoredInMilligrams() throws {
        let s = try ManualMeasurement.bloodGlucose(5.4, unit: "mmol/L").samples(at: t)
        #expect(s[0].unit == "mg/dL")
        #expect(abs(s[0].value - 97.29828) < 1e-9)
    }

    @Test func weightInPoundsIsStoredInKilograms() throws {
        let s = try ManualMeasurement.bodyMass(160, unit: "lb").samples(at: t)
        #expect(s.map(\.type) == ["bodyMass"] && s[0].unit == "kg")
        #expect(abs(s[0].value - 72.5747792) < 1e-9)
        #expect(s[0].metadata["originalUnit"] == "lb")
        #expect(try ManualMeasurement.bodyMass(72.5, unit: "kg").samples(at: t)[0].value == 72.5)
    }

    @Test(arguments: [
        ManualMeasurement.bodyMass(1, unit: "kg"), .bodyMass(501, unit: "kg"), .bodyMass(72, unit: "st"),
        .heartRate(19), .heartRate(301), .oxygenSaturation(49), .oxygenSaturation(100.5),
        .bloodPressure(systolic: 82, diastolic: 128), .bloodPressure(systolic: 120, diastolic: 120),
        .bloodGlucose(9, unit: "mg/dL"), .bloodGlucose(56, unit: "mmol/L"), .bloodGlucose(5, unit: "g/L"),
        .heartRate(.nan),
    ])
    func outOfRangeValuesAreRefused(_ m: ManualMeasurement) {
        #expect(throws: JournalError.self) { try m.samples(at: t) }
    }

    @Test func theErrorNamesTheRange() {
        #expect(throws: JournalError.outOfRange(measurement: "blood oxygen", value: "40 %", range: "50–100 %")) {
            try ManualMeasurement.oxygenSaturation(40).samples(at: t)
        }
    }

    @Test func stepsNeedAnIntervalOfAtMostADay() {
        #expect(throws: JournalError.self) { try ManualMeasurement.steps(100, from: t, to: t).samples(at: t) }
        #expect(throws: JournalError.self) { try ManualMeasurement.steps(100, from: t, to: t.adding(millis: 90_000_000)).samples(at: t) }
        #expect((try? ManualMeasurement.steps(100, from: t, to: t.adding(millis: 3_600_000)).samples(at: t))?.first?.end == t.adding(millis: 3_600_000))
    }
}
