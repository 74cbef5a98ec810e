import HealthSpoolCore

extension ReportSections {
    /// The lab values the person's providers sent (`HealthRecords.labs`), a row per test: its
    /// results oldest to newest (the last six), the change since the one before, and the lab's
    /// reference range; nil (left out) when there is none.
    public struct Labs: Sendable {
        /// `Glucose`, `City Clinic`, `3 Jan 2026: 98 mg/dL; 2 Mar 2026: 131 mg/dL (high)`,
        /// `+33 mg/dL`, `70–99 mg/dL`.
        public struct Row: Sendable {
            public var name: String
            public var provider: String
            public var results: String
            public var change: String
            public var range: String
        }

        public var rows: [Row]

        init?(_ r: VisitReport) {
            guard !r.healthRecords.labs.isEmpty else { return nil }
            rows = r.healthRecords.labs.map { t in
                Row(name: t.name, provider: t.latest.provider,
                    results: t.readings.suffix(6).map { "\(ReportText.short($0.date.localDate)): \($0.text)\(Self.flag($0))" }.joined(separator: "; "),
                    change: Self.change(t),
                    range: Self.range(t.latest) + (t.unit.isEmpty || t.latest.low == nil && t.latest.high == nil ? "" : " " + t.unit))
            }
        }

        /// ` (high)` or ` (low)` against the lab's reference range.
        static func flag(_ r: LabReading) -> String {
            if let high = r.high, r.value > high { return " (high)" }
            if let low = r.low, r.value < low { return " (low)" }
            return ""
        }

        /// `+12 mg/dL` since the result before, `–` for a single one.
        static func change(_ t: LabTrend) -> String {
            guard let p = t.previous else { return "–" }
            let d = t.latest.value - p.value
            return (d > 0 ? "+" : d < 0 ? "−" : "±") + DecimalText.trimmed(abs(d), digits: 2) + (t.unit.isEmpty ? "" : " " + t.unit)
        }

        static func range(_ r: LabReading) -> String {
            switch (r.low, r.high) {
            case let (low?, high?): "\(DecimalText.trimmed(low, digits: 2))–\(DecimalText.trimmed(high, digits: 2))"
            case let (low?, nil): "from \(DecimalText.trimmed(low, digits: 2))"
            case let (nil, high?): "up to \(DecimalText.trimmed(high, digits: 2))"
            case (nil, nil): "–"
            }
        }
    }
}
