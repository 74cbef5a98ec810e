@testable import HealthJournal
import HealthSpoolCore
import Testing

/// What a measurement form reads: plain numbers only, and problems in words a person uses, each
/// for its field.
@Suite struct MeasurementEntryTests {
    @Test(arguments: ["97%", "6 2", "abc", "1e3", "nan", "inf", "-5", "0x10", "5.", "5..4", "5.4.1", "", " ", "97 %", "½"])
    func aTextThatIsNotAPlainNumberIsRefused(_ text: String) {
        #expect(MeasurementEntry.plainNumber(text) == nil)
    }

    @Test func plainNumbersAreReadWithAPointOrAComma() {
        #expect(MeasurementEntry.plainNumber("97") == 97)
        #expect(MeasurementEntry.plainNumber(" 128 ") == 128)
        #expect(MeasurementEntry.plainNumber("5.4") == 5.4)
        #expect(MeasurementEntry.plainNumber("5,4") == 5.4)
    }

    func problems(_ kind: String, _ fields: [String: String], unit: GlucoseUnit = .mmolPerL) -> [String: String] {
        guard case .problems(let list) = MeasurementEntry.parse(kind: kind, fields: fields, glucoseUnit: unit) else { return [:] }
        return Dictionary(list.map { ($0.field, $0.message) }) { a, _ in a }
    }

    @Test func aNumberWithAPercentOrASpaceGetsAHintNotAGuess() {
        #expect(problems("spo2", ["value-spo2": "97%"]) == ["value-spo2": "Type only the number, for example 97."])
        #expect(problems("hr", ["value-hr": "6 2"]) == ["value-hr": "Type only the number, for example 72."])
        #expect(problems("hr", ["value-hr": ""]) == ["value-hr": "Type your heart rate, for example 72."])
    }

    @Test func bloodPressureUpsideDownSaysWhatToDoNextToTheTopNumber() {
        #expect(problems("bp", ["systolic": "80", "diastolic": "120"]) == [
            "systolic": "The top number must be higher than the bottom number. Check the reading and type it again.",
        ])
        #expect(problems("bp", ["systolic": "128", "diastolic": "8 2"]) == ["diastolic": "Type only the number, for example 82."])
    }

    @Test func aNumberOutOfRangeSaysTheLimitInPlainWords() {
        #expect(problems("hr", ["value-hr": "400"]) == [
            "value-hr": "400 is too high for your heart rate: it is at most 300 beats per minute. Check the reading and type it again.",
        ])
        #expect(problems("glucose", ["value-glucose": "98"])["value-glucose"]?.hasPrefix("98 is too high for your blood sugar: it is at most 55 mmol/L.") == true)
    }

    @Test func goodNumbersMakeTheMeasurement() {
        guard case .measurement(let m) = MeasurementEntry.parse(kind: "bp", fields: ["systolic": "128", "diastolic": "82"]) else {
            Issue.record("refused"); return
        }
        #expect(m == .bloodPressure(systolic: 128, diastolic: 82))
        guard case .measurement(let g) = MeasurementEntry.parse(kind: "glucose", fields: ["value-glucose": "98"], glucoseUnit: .mgPerDL) else {
            Issue.record("refused"); return
        }
        #expect(g == .bloodGlucose(98, unit: "mg/dL"))
        guard case .measurement(let w) = MeasurementEntry.parse(kind: "weight", fields: ["value-weight": "72,5"]) else {
            Issue.record("refused"); return
        }
        #expect(w == .bodyMass(72.5, unit: "kg"))
        #expect(problems("weight", ["value-weight": "72.5kg"]) == ["value-weight": "Type only the number, for example 72.5."])
    }
}
