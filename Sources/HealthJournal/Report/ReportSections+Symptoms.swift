import HealthSpoolCore

extension ReportSections {
    /// Each symptom group: a chart of its daily score and a row per symptom (and the group's total).
    public struct Symptoms: Sendable {
        public struct Group: Sendable {
            public var name: String
            public var chart: ReportChart
            public var rows: [Row]
        }

        /// A symptom's figures, or the group's in all (`isTotal`, its name in brackets).
        public struct Row: Sendable {
            public var label: String
            public var isTotal: Bool
            public var entries: Int
            public var days: Int
            public var score: Int
            public var highest: Int
            /// `3 Mar 2026 (4), 5 Mar 2026 (4)`.
            public var worstDays: String
            /// `morning 2, evening 1`.
            public var parts: String
        }

        public var groups: [Group]

        init?(_ r: VisitReport) {
            guard !r.symptoms.isEmpty else { return nil }
            groups = r.symptoms.enumerated().map { i, c in
                // The store's group of symptoms logged without one, in words (issue 40).
                let name = c.category.name == SymptomEntry.defaultCategory ? "Symptoms without a group" : c.category.name
                func row(_ s: ScoreFigures, total: Bool) -> Row {
                    Row(label: total ? "(\(s.name))" : s.name, isTotal: total, entries: s.entries, days: s.days, score: s.total, highest: s.highest,
                        worstDays: s.worstDays.map { "\(ReportText.short($0.day)) (\($0.score))" }.joined(separator: ", "),
                        parts: s.parts.map { "\($0.part) \($0.count)" }.joined(separator: ", "))
                }
                return Group(name: name,
                             chart: .bars(c.category.daily.map(Double.init), days: r.days, label: "Daily score of \(name)", id: "sym\(i)"),
                             rows: c.symptoms.map { row($0, total: false) } + (c.symptoms.count > 1 ? [row(c.category, total: true)] : []))
            }
        }
    }
}
