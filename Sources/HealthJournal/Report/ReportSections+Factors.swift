import HealthSpoolCore

extension ReportSections {
    /// The factors named most with symptoms, and the lifestyle factors on the worst days.
    public struct Factors: Sendable {
        /// A table of factors named with symptoms (worse, or relieving).
        public struct Named: Sendable {
            public var title: String
            public var rows: [NameCount]
        }

        /// A lifestyle factor: on how many of the high-score days, and of the others.
        public struct Lifestyle: Sendable {
            public var factor: String
            public var high: Int
            public var other: Int
        }

        public var named: [Named]
        public var highDays: Int
        public var otherDays: Int
        public var oneHighDay: Bool
        /// Empty: no lifestyle factor was logged.
        public var lifestyle: [Lifestyle]
        public var hasLifestyle: Bool

        init?(_ r: VisitReport) {
            guard let f = r.factors else { return nil }
            named = [Named(title: "Named as making symptoms worse", rows: f.aggravating), Named(title: "Named as relieving symptoms", rows: f.relieving)]
                .filter { !$0.rows.isEmpty }
            highDays = f.highDays
            otherDays = f.otherDays
            oneHighDay = f.highDays == 1
            lifestyle = f.lifestyle.map { Lifestyle(factor: $0.factor, high: $0.highDays, other: $0.otherDays) }
            hasLifestyle = !lifestyle.isEmpty
        }
    }
}
