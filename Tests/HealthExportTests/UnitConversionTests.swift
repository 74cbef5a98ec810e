import HealthSpoolCore
import Testing

@Suite("Unit conversion")
struct UnitConversionTests {
    @Test(arguments: [
        (418.4, "kJ", "kcal", 100.0),
        (165.2, "lb", "kg", 74.933459524),
        (98.6, "degF", "degC", 37.0),
        (32.0, "°F", "degC", 0.0),
        (37.0, "degC", "degF", 98.6),
        (5.4, "mmol/L", "mg/dL", 97.29828),
        (5.4, "mmol<180.1558800000541>/L", "mg/dL", 97.2841752),   // the molar mass in the unit, not 18.0182
        (16.0, "fl_oz_us", "mL", 473.176473),
        (1.5, "L", "mL", 1500.0),
        (7.1, "hr", "min", 426.0),
        (0.0482, "s", "ms", 48.2),
        (5.0, "mi", "km", 8.04672),
        (1200.0, "m", "km", 1.2),
        (70.0, "in", "cm", 177.8),
        (1.8, "m", "cm", 180.0),
        (1500.0, "mg", "g", 1.5),
        (2.0, "count/s", "count/min", 120.0),
        (72.0, "bpm", "count/min", 72.0),
    ])
    func converts(_ value: Double, _ from: String, _ to: String, _ expected: Double) throws {
        let v = try #require(UnitConversion.convert(value, from: from, to: to))
        #expect(v == expected)
    }

    @Test func unknownConversionsAreNil() {
        #expect(UnitConversion.convert(1, from: "kg", to: "km") == nil)
        #expect(UnitConversion.convert(1, from: "furlong", to: "km") == nil)
    }

    @Test func toCanonicalUsesTheRegistryUnitAndReportsTheOriginal() {
        let (v, unit, original) = UnitConversion.toCanonical(2093.4, unit: "kJ", type: "activeEnergyBurned")
        #expect(v == 500.334608031 && unit == "kcal" && original == "kJ")
        let same = UnitConversion.toCanonical(72, unit: "bpm", type: "heartRate")
        #expect(same.0 == 72 && same.1 == "count/min" && same.2 == nil)
        let vo2 = UnitConversion.toCanonical(41.3, unit: "ml/(kg·min)", type: "vo2Max")
        #expect(vo2.1 == "mL/(kg*min)" && vo2.2 == nil)
        let audio = UnitConversion.toCanonical(62, unit: "dBA", type: "environmentalAudioExposure")
        #expect(audio.1 == "dBASPL")
    }

    @Test func typesOutsideTheRegistryKeepTheirUnit() {
        let (v, unit, original) = UnitConversion.toCanonical(1.9, unit: "kcal/hr·kg", type: "physical_effort")
        #expect(v == 1.9 && unit == "kcal/hr·kg" && original == nil)
    }

    @Test func aUnitThatCannotBeConvertedIsReturnedAsIs() {
        let (_, unit, original) = UnitConversion.toCanonical(11, unit: "stone-ish", type: "bodyMass")
        #expect(unit == "stone-ish" && original == nil)
    }

    @Test(arguments: [
        (99.99999999999999, 100.0), (7.8214118400000014, 7.82141184), (0.1 + 0.2, 0.3),
        (-1.7999999999999998, -1.8), (123_456_789_012_345.0, 123_456_789_012_000.0), (0.0, 0.0),
    ])
    func roundsToTwelveSignificantDigits(_ v: Double, _ expected: Double) {
        #expect(UnitConversion.rounded(v, significantDigits: 12) == expected)
    }
}
