import HealthSpoolCore

extension ReportSections {
    /// Steps and sleep: the means, a chart of each, and a row per day (per week past two months).
    public struct Activity: Sendable {
        /// A day's or a week's means; `–` where there is no figure.
        public struct Row: Sendable {
            public var label: String
            public var steps: String
            public var asleep: String
            public var inBed: String
        }

        /// `Mean steps a day: 6,000; mean asleep: 7 h 30 min.`
        public var means: String
        public var stepsChart: ReportChart?
        public var sleepChart: ReportChart?
        /// Past 62 days, a row is a week (Monday first) and its figures are the week's means.
        public var weekly: Bool
        public var rows: [Row]

        init?(_ r: VisitReport) {
            guard let a = r.activity else { return nil }
            var means: [String] = []
            if let s = a.meanSteps { means.append("Mean steps a day: " + ReportText.number(s.rounded())) }
            if let s = a.meanAsleepMinutes { means.append("mean asleep: " + ReportText.duration(s)) }
            if let s = a.meanInBedMinutes { means.append("mean in bed: " + ReportText.duration(s)) }
            self.means = means.joined(separator: "; ") + "."
            stepsChart = a.meanSteps == nil ? nil : ReportChart.bars(a.days.map { $0.steps ?? 0 }, days: r.days, label: "Steps per day", id: "steps")
            sleepChart = a.meanAsleepMinutes == nil ? nil
                : ReportChart.bars(a.days.map { ($0.asleepMinutes ?? 0) / 60 }, days: r.days, label: "Hours asleep per night", id: "sleep")
            weekly = a.days.count > 62
            rows = Self.groups(a.days, weekly: weekly).compactMap { label, days in
                func mean(_ v: [Double]) -> Double? { v.isEmpty ? nil : v.reduce(0, +) / Double(v.count) }
                let steps = mean(days.compactMap(\.steps)), asleep = mean(days.compactMap(\.asleepMinutes))
                let inBed = mean(days.compactMap(\.inBedMinutes))
                guard steps != nil || asleep != nil || inBed != nil else { return nil }
                return Row(label: ReportText.short(label), steps: steps.map { ReportText.number($0.rounded()) } ?? "–",
                           asleep: asleep.map(ReportText.duration) ?? "–", inBed: inBed.map(ReportText.duration) ?? "–")
            }
        }

        /// The days one by one, or grouped by week (Monday first).
        static func groups(_ days: [ActivityDay], weekly: Bool) -> [(CivilDate, [ActivityDay])] {
            guard weekly else { return days.map { ($0.day, [$0]) } }
            var out: [(CivilDate, [ActivityDay])] = []
            for d in days {
                let w = Adherence.weekStart(of: d.day)
                if out.last?.0 == w { out[out.count - 1].1.append(d) } else { out.append((w, [d])) }
            }
            return out
        }
    }
}
