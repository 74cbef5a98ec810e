import HealthSpoolCore

/// The input formats, recognized by content (names lie: exports are localized).
public enum ExportFormat: String, Sendable, CaseIterable {
    /// Apple Health "Export All Health Data" zip.
    case appleHealthZip = "apple-health-zip"
    /// A bare Apple Health export.xml.
    case appleHealthXML = "apple-health-xml"
    /// Health Auto Export JSON (`data.metrics[]`, `data.workouts[]`).
    case autoExportJSON = "auto-export-json"
    /// Health Auto Export CSV (a `Date` column and one column per metric).
    case autoExportCSV = "auto-export-csv"
    /// The native format: a JSON array / `{"samples": [...]}` of samples, or NDJSON.
    case nativeJSON = "native-json"
    /// Plain CSV: `type,value,unit,start,end,source`.
    case csv

    /// Guesses the format from the first bytes and the file name.
    public static func detect(head: [UInt8], name: String) -> ExportFormat? {
        var i = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        if head.count >= 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03 || head[2] == 0x05 { return .appleHealthZip }
        while i < head.count, head[i] == 0x20 || head[i] == 0x0A || head[i] == 0x0D || head[i] == 0x09 { i += 1 }
        guard i < head.count else { return nil }
        let rest = head[i...]
        switch head[i] {
        case 0x3C: return .appleHealthXML
        case 0x7B:
            return isAutoExportJSON(head[i...]) ? .autoExportJSON : .nativeJSON
        case 0x5B: return .nativeJSON
        default:
            let text = String(decoding: rest.prefix(4096), as: UTF8.self)
            let firstLine = text.split(separator: "\n").first.map(String.init) ?? text
            var reader = CSVReader(Array(firstLine.utf8))
            let columns = Set((reader.next() ?? []).map { $0.trimmingCharacters().lowercased() })
            if columns.contains("type"), columns.contains("value") { return .csv }
            if !columns.isDisjoint(with: ["date", "date/time", "start", "startdate", "start date"]) { return .autoExportCSV }
            return nil
        }
    }

    /// Members of `data` that only Health Auto Export writes.
    static let autoExportSections: Set<String> = [
        "metrics", "workouts", "stateOfMind", "medications", "symptoms", "cycleTracking", "ecg", "heartRateNotifications",
    ]

    /// Whether a JSON object starts like Health Auto Export's: `{"data": {"metrics": …` (any
    /// spacing, as pretty-printers write it), or a bare `{"metrics": …` / `{"workouts": …`.
    /// Native objects start with `"samples"` or a sample's own members.
    static func isAutoExportJSON(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        func skipSpace() { while i < bytes.endIndex, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }
        /// Reads `{ "key" :` and returns the key (escapes are not expected in these keys).
        func firstKey() -> String? {
            skipSpace()
            guard i < bytes.endIndex, bytes[i] == 0x7B else { return nil }
            i += 1
            skipSpace()
            guard i < bytes.endIndex, bytes[i] == 0x22 else { return nil }
            i += 1
            let start = i
            while i < bytes.endIndex, bytes[i] != 0x22 { i += 1 }
            guard i < bytes.endIndex else { return nil }
            let key = String(decoding: bytes[start..<i], as: UTF8.self)
            i += 1
            skipSpace()
            guard i < bytes.endIndex, bytes[i] == 0x3A else { return nil }
            i += 1
            return key
        }
        guard let key = firstKey() else { return false }
        if autoExportSections.contains(key) { return true }
        guard key == "data", let inner = firstKey() else { return false }
        return autoExportSections.contains(inner)
    }
}
