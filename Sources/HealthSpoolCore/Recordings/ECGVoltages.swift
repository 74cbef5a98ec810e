/// An ECG's voltages as the `voltages` metadata of an `electrocardiogram` sample carries them:
/// JSON text, an array of microvolts (`[-52.551,-51.2,…]`), in recording order at the
/// sample's `sampleRateHz`.
public enum ECGVoltages {
    /// At most this many voltages are kept for one recording (60 s at 1 kHz; Apple's are 30 s at
    /// 512 Hz, 15,360).
    public static let maxCount = 60_000

    /// The metadata text for `microvolts`.
    public static func encode(_ microvolts: [Double]) -> String {
        var w = JSONWriter(capacity: microvolts.count * 9 + 2)
        w.raw("[")
        for (n, v) in microvolts.enumerated() {
            if n > 0 { w.raw(",") }
            if v.isFinite { w.number(v) } else { w.raw("null") }
        }
        w.raw("]")
        return w.text
    }

    /// The voltages of a metadata text; nil when it is not an array of numbers.
    public static func decode(_ text: String) -> [Double]? {
        guard let items = (try? JSONParser.parse(text))?.arrayValue else { return nil }
        var out: [Double] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let v = item.doubleValue else { return nil }
            out.append(v)
        }
        return out
    }
}
