import HealthSpoolCore

extension ReportHTML {
    /// What the person's providers sent to their phone (conditions, allergies, the providers'
    /// medication list, immunizations) and the period's heart-rate notifications; each list left
    /// out when empty, the section when all are.
    static func healthRecords(_ r: VisitReport, _ h: inout HTMLText) {
        let lists = r.healthRecords.lists.filter { !$0.items.isEmpty }
        guard !lists.isEmpty || !r.heartRateNotifications.isEmpty else { return }
        open("records", "Health records and heart notifications", &h)
        if !lists.isEmpty {
            h.raw("<p class=\"hint\">As the person’s providers sent them to their phone (all dates, not only this period).</p>")
        }
        for list in lists {
            h.raw("<div class=\"keep\" id=\"r-\(list.id)\"><h3>"); h.text(list.title); h.raw("</h3><ul>")
            for i in list.items {
                h.raw("<li>"); h.text(i.name); h.raw(" <span class=\"hint\">")
                h.text("\(short(CivilDate(parsing: String(i.date.iso8601Local.prefix(10))) ?? CivilDate(daysSinceEpoch: 0)))"
                       + (i.status.map { ", " + $0 } ?? "") + "; " + i.provider)
                h.raw("</span></li>")
            }
            h.raw("</ul></div>")
        }
        if !r.heartRateNotifications.isEmpty {
            h.raw("<div class=\"keep\" id=\"r-heart-notifications\"><h3>Heart rate notifications (from the watch)</h3><ul>")
            for n in r.heartRateNotifications {
                h.raw("<li>"); h.text(when(n.start) + ": " + n.sentence); h.raw("</li>")
            }
            h.raw("</ul></div>")
        }
        h.raw("</section>")
    }
}
