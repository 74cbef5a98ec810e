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
            let text = String(decoding: rest.prefix(4096), as: UTF8.self)
            let firstLineEnd = text.firstIndex(of: "\n")
            let firstLine = firstLineEnd.map { String(text[..<$0]) } ?? text
            if firstLine.contains("\"metrics\"") || firstLine.contains("\"workouts\"") || text.contains("\"data\":{\"metrics\"")
                || text.contains("\"data\": {") && (text.contains("\"metrics\"") || text.contains("\"workouts\"")) {
                return .autoExportJSON
            }
            return .nativeJSON
        case 0x5B: return .nativeJSON
        default:
            let text = String(decoding: rest.prefix(4096), as: UTF8.self)
            let header = (text.split(separator: "\n").first.map(String.init) ?? text).lowercased()
            if header.hasPrefix("type,") || header.hasPrefix("\"type\",") { return .csv }
            if header.hasPrefix("date,") || header.hasPrefix("date/time,") || header.hasPrefix("\"date\",") || header.hasPrefix("start,") {
                return .autoExportCSV
            }
            return nil
        }
    }
}
