import Testing
@testable import HealthSpoolCore

/// The emergency line (issue 28, item 9): only for a severe or debilitating chest pain or
/// shortness of breath.
@Suite struct EmergencyLineTests {
    @Test(arguments: [("Chest pain", Severity.severe), ("chest pain", .debilitating), ("Shortness of breath", .severe),
                      ("Sharp chest pain, left", .debilitating)])
    func severeChestPainOrBreathlessnessGetsTheLine(symptom: String, severity: Severity) {
        #expect(EmergencyLine.line(symptom: symptom, severity: severity) == "If this is an emergency, call your local emergency number.")
    }

    @Test(arguments: [("Chest pain", Severity.mild), ("Shortness of breath", .moderate), ("Headache", .debilitating), ("Back pain", .severe)])
    func otherwiseNothingIsSaid(symptom: String, severity: Severity) {
        #expect(EmergencyLine.line(symptom: symptom, severity: severity) == nil)
    }
}
