import HealthJournal
import HealthSpoolCore

/// The records page's hearing tests and vision prescriptions (`records.mustache`), from
/// `HealthRecords`: a small table per audiogram (frequency, each ear's threshold in dB HL) and
/// per prescription (each quantity for the right and left eye).
extension RecordsPage {
    /// One audiogram as a table.
    struct AudiogramTable: Sendable {
        struct Row: Sendable {
            let frequency: String
            let left: String
            let right: String
        }

        let title: String
        let detail: String
        let rows: [Row]

        init(_ a: HealthRecords.Audiogram) {
            title = "Hearing test, " + RecordsPage.day(a.date)
            detail = a.source
            rows = a.points.map { p in
                Row(frequency: p.frequencyText, left: p.left.map(RecordsPage.decibels) ?? "not tested",
                    right: p.right.map(RecordsPage.decibels) ?? "not tested")
            }
        }
    }

    /// One prescription as a table.
    struct PrescriptionTable: Sendable {
        struct Row: Sendable {
            let label: String
            let right: String
            let left: String
        }

        let title: String
        let detail: String
        let rows: [Row]

        init(_ p: HealthRecords.Prescription) {
            title = p.kindText + (p.brand.map { " (\($0))" } ?? "")
            detail = "Issued " + RecordsPage.day(p.issued) + (p.expires.flatMap(CivilDate.init(parsing:)).map { " · expires " + DayStrip.long($0) } ?? "")
                + " · " + p.source
            rows = p.rows.map { Row(label: $0.label, right: $0.right ?? "–", left: $0.left ?? "–") }
        }
    }

    /// The record's own day (a date alone is that day, whatever the zone here).
    static func day(_ t: Timestamp) -> String {
        DayStrip.long(t.localDate)
    }

    /// `10 dB HL`, `12.5 dB HL`.
    static func decibels(_ v: Double) -> String {
        (v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)) + " dB HL"
    }
}
