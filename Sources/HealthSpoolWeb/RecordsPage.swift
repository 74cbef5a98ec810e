import HealthSpoolCore
import HealthJournal

/// The page of what the person's providers sent to their phone (`/records`,
/// `records.mustache`), from `HealthRecords`: conditions, allergies, the providers' medications
/// and immunizations as lists, then hearing tests and vision prescriptions as tables
/// (`RecordsPage+HearingVision`), each left out when empty.
struct RecordsPage: Sendable {
    struct Row: Sendable {
        let name: String
        let detail: String
    }

    struct List: Sendable {
        let title: String
        let id: String
        let rows: [Row]
    }

    let lists: [List]
    /// A row per lab test: its latest result, the one before (charts on the measurements page).
    let labs: [Row]
    let hasLabs: Bool
    let audiograms: [AudiogramTable]
    let prescriptions: [PrescriptionTable]
    let hasAudiograms: Bool, hasPrescriptions: Bool
    /// Anything to show (else the page says how records arrive).
    let hasRecords: Bool

    init(_ r: HealthRecords) {
        lists = r.lists.filter { !$0.items.isEmpty }.map { l in
            List(title: l.title, id: l.id, rows: l.items.map { i in
                // The record's own day (a date alone is that day, whatever the zone here).
                Row(name: i.name, detail: Self.day(i.date) + (i.status.map { ", " + $0 } ?? "") + " · " + i.provider)
            })
        }
        labs = r.labs.map { t in
            Row(name: t.name, detail: "\(Self.day(t.latest.date)): \(t.latest.text)"
                    + (t.previous.map { "; before, \(Self.day($0.date)): \($0.text)" } ?? "")
                    + (t.readings.count > 2 ? "; \(t.readings.count) results" : "") + " · " + t.latest.provider)
        }
        hasLabs = !labs.isEmpty
        audiograms = r.audiograms.map(AudiogramTable.init)
        prescriptions = r.prescriptions.map(PrescriptionTable.init)
        hasAudiograms = !audiograms.isEmpty
        hasPrescriptions = !prescriptions.isEmpty
        hasRecords = !lists.isEmpty || hasLabs || r.hasHearingOrVision
    }

    static func render(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        WebTemplates.render(PageFrame(title: "Health records", path: "/records", keys: csrf, notice: Notice(query, back: "/records"),
                                      page: RecordsPage(try store.healthRecords())), .records)
    }
}
