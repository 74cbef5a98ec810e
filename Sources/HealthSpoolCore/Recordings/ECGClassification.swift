/// What the watch's ECG app concluded about a recording, and what that means in plain words.
///
/// Read from the classification as written (`Sinus Rhythm`, `Atrial Fibrillation`, HealthKit's
/// `HKElectrocardiogramClassificationSinusRhythm`, Health Auto Export's words); a text no rule
/// knows (another language) is `unrecognized`, and the text as written is shown beside it.
public enum ECGClassification: String, Sendable, CaseIterable {
    case sinusRhythm
    case atrialFibrillation
    case inconclusiveHighHeartRate
    case inconclusiveLowHeartRate
    case inconclusivePoorReading
    case inconclusiveOther
    case unrecognized

    /// The classification a text names.
    public init(text: String) {
        let t = text.lowercased().filter { $0.isLetter || $0.isNumber }
        if t.contains("sinus") { self = .sinusRhythm }
        else if t.contains("fibril") || t.contains("flimmer") || t == "afib" { self = .atrialFibrillation }
        else if t.contains("over") || t.contains("high") { self = .inconclusiveHighHeartRate }
        else if t.contains("under") || t.contains("low") { self = .inconclusiveLowHeartRate }
        else if t.contains("poor") { self = .inconclusivePoorReading }
        else if t.contains("inconclusive") || t.contains("other") { self = .inconclusiveOther }
        else { self = .unrecognized }
    }

    /// The result in plain words, one sentence.
    public var plainWords: String {
        switch self {
        case .sinusRhythm: "Sinus rhythm: the heart beat in a regular pattern."
        case .atrialFibrillation: "Atrial fibrillation: the heart beat in an irregular pattern."
        case .inconclusiveHighHeartRate: "Inconclusive: the heart rate was too high for the app to check the rhythm."
        case .inconclusiveLowHeartRate: "Inconclusive: the heart rate was too low for the app to check the rhythm."
        case .inconclusivePoorReading: "Inconclusive: the recording was too noisy to read."
        case .inconclusiveOther: "Inconclusive: the app could not classify this recording."
        case .unrecognized: "The app's classification is shown as it was written."
        }
    }

    /// What the person should do, when it matters; nil when nothing needs doing.
    public var advice: String? {
        switch self {
        case .atrialFibrillation:
            "See a doctor about this result, and bring this recording. If you have chest pain, pressure, fainting or shortness of breath, call emergency services now."
        case .inconclusivePoorReading:
            "Record again sitting still, with your arm resting on a table."
        default: nil
        }
    }

    /// Whether the result asks for a doctor's attention (shown as a warning).
    public var needsAttention: Bool { self == .atrialFibrillation }
}
