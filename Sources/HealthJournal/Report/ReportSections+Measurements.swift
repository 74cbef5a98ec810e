import HealthSpoolCore

extension ReportSections {
    /// Each kind of measurement: its chart, and every reading or past sixty each day's range.
    public struct Measurements: Sendable {
        public struct Item: Sendable {
            public var title: String
            /// `Blood pressure (mmHg)`.
            public var heading: String
            public var chart: ReportChart?
            /// Blood pressure: two figures a reading.
            public var isBloodPressure: Bool
            /// Readings in all.
            public var count: Int
            /// The readings are listed one by one (`readings`), else each day's range (`daily`).
            public var oneByOne: Bool
            public var readings: [Reading]
            public var daily: [Day]
        }

        /// A reading: `128 / 82`.
        public struct Reading: Sendable {
            public var when: String
            public var value: String
        }

        /// A day's lowest, mean and highest (blood pressure: `118 / 75`).
        public struct Day: Sendable {
            public var day: String
            public var count: Int
            public var low: String
            public var mean: String
            public var high: String
        }

        public var items: [Item]

        init?(_ r: VisitReport) {
            guard !r.measurements.isEmpty else { return nil }
            func both(_ a: Double, _ b: Double?) -> String { ReportText.number(a) + (b.map { " / " + ReportText.number($0) } ?? "") }
            items = r.measurements.enumerated().map { i, m in
                Item(title: m.title, heading: "\(m.title) (\(m.unit))", chart: ReportChart.measurement(m, days: r.days, id: "m\(i)"),
                     isBloodPressure: m.kind == "bloodPressure", count: m.count, oneByOne: !m.readings.isEmpty,
                     readings: m.readings.map { Reading(when: ReportText.when($0.at), value: both($0.value, $0.second)) },
                     daily: m.daily.map { d in
                         Day(day: ReportText.short(d.day), count: d.count, low: both(d.low, d.second?.low), mean: both(d.mean, d.second?.mean),
                             high: both(d.high, d.second?.high))
                     })
            }
        }
    }
}
