/// Counts heartbeats in a single-lead ECG to give its average heart rate, for recordings whose
/// export leaves it out (Apple's `ecg_*.csv`).
///
/// A plain QRS detector: the squared slope, summed over 120 ms, peaks once a beat; a peak above
/// 40 % of the recording's 99th-percentile energy, at least 250 ms after the last one, is a
/// beat. The rate is the beats' mean interval; nil below two beats.
public enum HeartbeatCounter {
    /// The average rate in beats per minute, rounded to a whole beat.
    public static func averageRate(microvolts v: [Double], sampleRateHz fs: Double) -> Double? {
        let peaks = beatIndices(microvolts: v, sampleRateHz: fs)
        guard peaks.count >= 2 else { return nil }
        let seconds = Double(peaks.last! - peaks.first!) / fs
        guard seconds > 0 else { return nil }
        return (Double(peaks.count - 1) / seconds * 60).rounded()
    }

    /// The sample index of each detected beat.
    public static func beatIndices(microvolts v: [Double], sampleRateHz fs: Double) -> [Int] {
        guard fs > 0, fs.isFinite, v.count > Int(fs) else { return [] }
        var energy = [Double](repeating: 0, count: v.count)
        for i in 1..<(v.count - 1) {
            let a = v[i - 1].isFinite ? v[i - 1] : 0, b = v[i + 1].isFinite ? v[i + 1] : 0
            let d = b - a
            energy[i] = d * d
        }
        let window = max(1, Int(0.12 * fs))
        var integrated = [Double](repeating: 0, count: v.count)
        var sum = 0.0
        for i in 0..<v.count {
            sum += energy[i]
            if i >= window { sum -= energy[i - window] }
            integrated[i] = sum
        }
        let sorted = integrated.sorted()
        let threshold = 0.4 * sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        guard threshold > 0 else { return [] }
        let refractory = Int(0.25 * fs)
        var peaks: [Int] = []
        var i = 1
        while i < v.count - 1 {
            if integrated[i] > threshold, integrated[i] >= integrated[i - 1], integrated[i] >= integrated[i + 1] {
                // The top of this hump.
                var top = i
                var j = i
                while j < min(v.count, i + refractory), integrated[j] > threshold {
                    if integrated[j] > integrated[top] { top = j }
                    j += 1
                }
                if peaks.last.map({ top - $0 >= refractory }) ?? true { peaks.append(top) }
                i = max(j, top + 1)
                continue
            }
            i += 1
        }
        return peaks
    }
}
