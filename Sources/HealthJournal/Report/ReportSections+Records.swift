import HealthSpoolCore

extension ReportSections {
    /// What the person's providers sent to their phone (conditions, allergies, the providers'
    /// medication list, immunizations) and the period's heart-rate notifications; each list left
    /// out when empty, the section when all are.
    public struct Records: Sendable {
        public struct List: Sendable {
            public var id: String
            public var title: String
            public var items: [Item]
        }

        /// `Essential hypertension` and `2 May 2019, active; City Clinic`.
        public struct Item: Sendable {
            public var name: String
            public var detail: String
        }

        public var lists: [List]
        public var hasLists: Bool
        /// `14 Feb 2026, 03:12: High heart rate: 131 bpm (above 120)`.
        public var notifications: [String]
        public var hasNotifications: Bool

        init?(_ r: VisitReport) {
            let lists = r.healthRecords.lists.filter { !$0.items.isEmpty }
            guard !lists.isEmpty || !r.heartRateNotifications.isEmpty else { return nil }
            self.lists = lists.map { list in
                List(id: list.id, title: list.title, items: list.items.map { i in
                    Item(name: i.name, detail: ReportText.short(i.date.localDate) + (i.status.map { ", " + $0 } ?? "") + "; " + i.provider)
                })
            }
            hasLists = !lists.isEmpty
            notifications = r.heartRateNotifications.map { ReportText.when($0.start) + ": " + $0.sentence }
            hasNotifications = !notifications.isEmpty
        }
    }
}
