import HealthSpoolCore

/// One ECG recording as an export gives it, before it becomes an `electrocardiogram` sample.
/// Shared by the Apple CSV reader and Health Auto Export's `ecg` section.
struct ECGRecording {
    var start: Timestamp
    /// The classification as written (`Sinus Rhythm`; localized in some exports).
    var classification: String = ""
    var symptoms: String = ""
    var lead: String = ""
    var sampleRateHz: Double = 0
    var microvolts: [Double] = []
    /// The average heart rate the export gives; nil: counted from the voltages.
    var averageHeartRate: Double?
    var source: SampleSource
    /// The file it came from, or nil.
    var file: String?

    /// The sample: value = average heart rate (count/min), end = start + the recording's length.
    func sample() -> Sample {
        let seconds = sampleRateHz > 0 ? Double(microvolts.count) / sampleRateHz : 0
        var metadata: [String: String] = [
            "classification": classification,
            "classificationCode": ECGClassification(text: classification).rawValue,
            "sampleRateHz": SampleIdentity.canonicalNumber(sampleRateHz),
            "voltageUnit": "µV",
            "voltageCount": String(microvolts.count),
            "voltages": ECGVoltages.encode(microvolts),
        ]
        if !symptoms.isEmpty { metadata["symptoms"] = symptoms }
        if !lead.isEmpty { metadata["lead"] = lead }
        if let file { metadata["file"] = file }
        var rate = averageHeartRate
        if rate == nil, let counted = HeartbeatCounter.averageRate(microvolts: microvolts, sampleRateHz: sampleRateHz) {
            rate = counted
            metadata["averageHeartRateFrom"] = "voltages"
        }
        if rate == nil { metadata["averageHeartRateFrom"] = "none" }
        return Sample(type: "electrocardiogram", value: rate ?? 0, unit: "count/min", start: start,
                      end: start.adding(millis: Int64((seconds * 1000).rounded())), source: source, metadata: metadata)
    }
}
