import HealthSpoolCore

extension ReportSections {
    /// The period's ECGs: each recording's result in plain words (what to do on atrial
    /// fibrillation), its average heart rate and symptoms, and its strip printed at true paper
    /// scale (25 mm/s, 10 mm/mV, 1 mm grid; 6 s a row, 150 mm wide), in millimetres.
    public struct ECGs: Sendable {
        public struct Recording: Sendable {
            public var when: String
            /// `Sinus rhythm`: the result in plain words.
            public var result: String
            /// The watch's own words, when the app's result is not one the summary knows.
            public var asWritten: String?
            /// `Average heart rate 64 bpm; Lead I`, when there is any.
            public var facts: String?
            /// What to do (atrial fibrillation).
            public var advice: String?
            public var width: ChartNumber
            public var height: ChartNumber
            public var rowHeight: ChartNumber
            public var rows: [Row]
        }

        /// A row of the strip: its top, its trace (SVG points, mm) and the second it starts at.
        public struct Row: Sendable {
            public var y: ChartNumber
            public var points: String
            public var second: Int
        }

        public var recordings: [Recording]

        init?(_ r: VisitReport) {
            guard !r.ecgs.isEmpty else { return nil }
            recordings = r.ecgs.map { e in
                var facts: [String] = []
                if let hr = e.averageHeartRate { facts.append("average heart rate \(ReportText.number(hr)) bpm") }
                if let s = e.symptoms { facts.append("symptoms: \(s)") }
                if let lead = e.lead { facts.append(lead) }
                let joined = facts.joined(separator: "; ")
                let rowHeight = ECGStrip.rowHeight, gap = 3.0
                return Recording(
                    when: ReportText.when(e.start), result: e.classification.plainWords,
                    asWritten: e.classification == .unrecognized && !e.classificationText.isEmpty ? e.classificationText : nil,
                    facts: facts.isEmpty ? nil : joined.prefix(1).uppercased() + joined.dropFirst(),
                    advice: e.classification.needsAttention ? e.classification.advice : nil,
                    width: ChartNumber(e.strip.rowWidth), height: ChartNumber(Double(e.strip.rows.count) * (rowHeight + gap)),
                    rowHeight: ChartNumber(rowHeight),
                    rows: e.strip.rows.enumerated().map { n, row in Row(y: ChartNumber(Double(n) * (rowHeight + gap)), points: row.polyline, second: row.startSecond) })
            }
        }
    }
}
