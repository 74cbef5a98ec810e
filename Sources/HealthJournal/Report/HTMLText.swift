/// The one HTML escape of the project for markup written outside a template: the web
/// interface's `Page.escape` and the CLI's login page use it. (The summary's sections are
/// templates now: `ReportSections`, rendered by the web module.)
public enum HTMLText {
    /// `s` with `& < > " '` escaped, each Unicode scalar on its own (a quote followed by a
    /// combining mark is escaped too): safe in text and in quoted attributes.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
