/// The one calm line shown under the confirmation when a severe or debilitating chest pain or
/// shortness of breath is logged (issue 28, item 9). No other medical advice is given.
public enum EmergencyLine {
    public static let text = "If this is an emergency, call your local emergency number."

    /// Symptom names that may be an emergency when severe: compared without case, as parts of
    /// the name ("Chest pain", "chest pain left side", "Shortness of breath").
    static let symptoms = ["chest pain", "shortness of breath", "short of breath", "breathlessness"]

    /// The line for a logged symptom, or nil.
    public static func line(symptom: String, severity: Severity) -> String? {
        guard severity == .severe || severity == .debilitating else { return nil }
        let name = symptom.lowercased()
        return symptoms.contains(where: name.contains) ? text : nil
    }
}
