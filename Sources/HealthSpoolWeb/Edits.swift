import HealthJournal
import HealthSpoolCore

/// What the change and delete forms share: where they land, and the Change and Delete
/// buttons beside each entry of a list.
enum Edits {
    /// The page a form came from (`back`) when it is a path of this site, else `fallback`.
    static func back(_ path: String?, else fallback: String) -> String {
        guard let path, isLocalPath(path) else { return fallback }
        return path
    }

    /// `back` of a page's query (`?back=`: where the change page's forms land, and its Back link).
    static func back(_ query: Form, else fallback: String) -> String { back(query["back"], else: fallback) }

    /// A path on this site ("/day/2026-11-26"): no scheme, no other host, no query.
    static func isLocalPath(_ s: String) -> Bool {
        s.hasPrefix("/") && !s.hasPrefix("//") && s.count <= 200
            && s.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "/-_.".unicodeScalars.contains($0) }
    }

    /// A local date and time typed in two fields ("2026-11-26", "09:15") as an instant in the
    /// journal's zone; nil when both are as they were (`was`, the entry's local "YYYY-MM-DDTHH:MM").
    /// The time may be typed as a person types it ("0900", "9am"; `TimeOfDay(typed:)`).
    static func time(date: String?, time: String?, was: String, _ journal: HealthJournal, now: Timestamp) throws -> Timestamp? {
        let d = (date ?? "").trimmingSpaces, t = (time ?? "").trimmingSpaces
        let clock = t.isEmpty ? String(was.dropFirst(11).prefix(5)) : TimeOfDay(typed: t)?.description
        guard let clock, CivilDate(parsing: d.isEmpty ? String(was.prefix(10)) : d) != nil else {
            throw Problem("Type the date as year-month-day (2026-11-26) and the time as hours:minutes (09:15).")
        }
        let text = (d.isEmpty ? String(was.prefix(10)) : d) + "T" + clock
        guard text != String(was.prefix(16)) else { return nil }
        return try journal.time(text, now: now)
    }

    /// A refusal in words for the page.
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
