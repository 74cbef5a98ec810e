import HealthSpoolCore

extension ReportSections {
    /// Each medication with its doses and adherence, and the adherence by week.
    public struct Medications: Sendable {
        /// Doses due by the reminders and how they were taken.
        public struct Counts: Sendable {
            public var due: Int
            public var onTime: Int
            public var late: Int
            public var missed: Int

            init(_ a: AdherenceCount) {
                due = a.due
                onTime = a.onTime
                late = a.late
                missed = a.missed
            }
        }

        public struct Row: Sendable {
            public var name: String
            public var dose: String
            public var directions: String
            public var prescriber: String
            public var taken: Int
            /// Nil: no reminder is linked to it.
            public var adherence: Counts?
        }

        /// A medication's week (Monday first).
        public struct Week: Sendable {
            public var week: String
            public var name: String
            public var counts: Counts
        }

        public var rows: [Row]
        /// Oldest week first, each week's medications in the order of `rows`; empty: no reminder.
        public var weeks: [Week]
        public var hasWeeks: Bool

        init?(_ r: VisitReport) {
            guard !r.medications.isEmpty else { return nil }
            rows = r.medications.map {
                Row(name: $0.name, dose: $0.dose, directions: $0.directions, prescriber: $0.prescriber, taken: $0.taken, adherence: $0.adherence.map(Counts.init))
            }
            let weekly = r.medications.filter { !$0.weeks.isEmpty }
            weeks = Set(weekly.flatMap { $0.weeks.map(\.week) }).sorted().flatMap { w in
                weekly.compactMap { m in
                    m.weeks.first { $0.week == w }.map { Week(week: ReportText.short(w), name: m.name, counts: Counts($0.count)) }
                }
            }
            hasWeeks = !weeks.isEmpty
        }
    }
}
