extension TimeOfDay {
    /// Parses a time as a person types it, as they meant it: `09:00`, `9:00`, `0900`, `900`, `9`,
    /// `9.00`, `9h00`, `9am`, `9:30 pm`, `12 am` (midnight), `21:30`. Nil for anything else
    /// (`18:0900:07`, `25:00`, `9:7`), so a form refuses it rather than storing another time.
    public init?(typed text: String) {
        var t = Substring(text.trimmingSpaces.lowercased())
        var half: Int? = nil   // 0 for am, 12 for pm
        for (suffix, add) in [("a.m.", 0), ("p.m.", 12), ("am", 0), ("pm", 12), ("a", 0), ("p", 12)] where t.hasSuffix(suffix) {
            t = t.dropLast(suffix.count)
            half = add
            break
        }
        t = Substring(String(t).trimmingSpaces)
        guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || ":.h".contains($0)) }) else { return nil }
        let parts = t.split(omittingEmptySubsequences: false, whereSeparator: { ":.h".contains($0) })
        let hourText: Substring, minuteText: Substring
        switch parts.count {
        case 1 where t.count <= 2:            // "9", "09", "21"
            hourText = t; minuteText = "00"
        case 1 where t.count <= 4:            // "900", "0900", "2130"
            hourText = t.dropLast(2); minuteText = t.suffix(2)
        case 2 where parts[1].isEmpty && t.last == "h":   // "9h"
            hourText = parts[0]; minuteText = "00"
        case 2:
            hourText = parts[0]; minuteText = parts[1]
        default:
            return nil
        }
        guard (1...2).contains(hourText.count), minuteText.count == 2,
              var hour = Int(hourText), let minute = Int(minuteText) else { return nil }
        if let half {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + half
        }
        self.init(hour: hour, minute: minute)
    }
}
