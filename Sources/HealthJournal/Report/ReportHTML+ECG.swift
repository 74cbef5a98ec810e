import HealthSpoolCore

extension ReportHTML {
    /// The period's ECGs: each recording's result in plain words (what to do on atrial
    /// fibrillation), its average heart rate and symptoms, and its strip printed at true paper
    /// scale (25 mm/s, 10 mm/mV, 1 mm grid; 6 s a row, 150 mm wide). Left out when there are none.
    static func ecgs(_ r: VisitReport, _ h: inout HTMLText) {
        guard !r.ecgs.isEmpty else { return }
        open("ecg", "ECG recordings", &h)
        h.raw("<p class=\"hint\">From the watch’s ECG app (one lead). Printed at 25 mm a second and 10 mm a millivolt on a 1 mm grid.</p>")
        for e in r.ecgs {
            h.raw("<div class=\"keep ecg-record\"><h3>")
            h.text(when(e.start))
            h.raw("</h3><p class=\"ecg-result\"><strong>")
            h.text(e.classification.plainWords)
            h.raw("</strong>")
            if e.classification == .unrecognized, !e.classificationText.isEmpty { h.text(" The watch’s result, as written: \(e.classificationText).") }
            var facts: [String] = []
            if let hr = e.averageHeartRate { facts.append("average heart rate \(number(hr)) bpm") }
            if let s = e.symptoms { facts.append("symptoms: \(s)") }
            if let lead = e.lead { facts.append(lead) }
            if !facts.isEmpty { h.text(" " + facts.joined(separator: "; ").prefix(1).uppercased() + facts.joined(separator: "; ").dropFirst() + ".") }
            h.raw("</p>")
            if let advice = e.classification.advice, e.classification.needsAttention {
                h.raw("<p class=\"ecg-advice\">"); h.text(advice); h.raw("</p>")
            }
            let rowHeight = ECGStrip.rowHeight, gap = 3.0
            let height = Double(e.strip.rows.count) * (rowHeight + gap)
            let width = e.strip.rowWidth
            h.raw("<svg class=\"ecg-strip\" role=\"img\" aria-label=\"ECG strip\" width=\"\(mm(width))mm\" height=\"\(mm(height))mm\" viewBox=\"0 0 \(mm(width)) \(mm(height))\">")
            h.raw("<defs><pattern id=\"rmm\" width=\"1\" height=\"1\" patternUnits=\"userSpaceOnUse\"><path d=\"M1 0V1H0\" fill=\"none\" stroke=\"#f0b8b8\" stroke-width=\"0.08\"/></pattern>")
            h.raw("<pattern id=\"rmm5\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\"><rect width=\"5\" height=\"5\" fill=\"url(#rmm)\"/><path d=\"M5 0V5H0\" fill=\"none\" stroke=\"#d97a7a\" stroke-width=\"0.2\"/></pattern></defs>")
            for (n, row) in e.strip.rows.enumerated() {
                let y = Double(n) * (rowHeight + gap)
                h.raw("<g transform=\"translate(0 \(mm(y)))\"><rect width=\"\(mm(width))\" height=\"\(mm(rowHeight))\" fill=\"url(#rmm5)\"/>")
                h.raw("<polyline points=\"\(row.polyline)\" fill=\"none\" stroke=\"#000\" stroke-width=\"0.3\"/>")
                h.raw("<text x=\"0.8\" y=\"3\" font-size=\"2.5\">\(row.startSecond) s</text></g>")
            }
            h.raw("</svg></div>")
        }
        h.raw("</section>")
    }

    /// Millimetres for an attribute, one decimal.
    static func mm(_ v: Double) -> String {
        let t = (v * 10).rounded() / 10
        return t == t.rounded() ? String(Int(t)) : String(t)
    }
}
