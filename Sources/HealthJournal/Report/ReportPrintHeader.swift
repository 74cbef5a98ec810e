import HealthSpoolCore

/// The header printed on every page of the summary: whose it is, the period, and page N of M.
/// A CSS rule (`@page`): inline in the file, `/report/page.css` on the web. Made here, not in a
/// template: the name goes inside a CSS string, which needs CSS escapes, not HTML's.
public enum ReportPrintHeader {
    public static func css(_ r: VisitReport) -> String { css(from: r.from, to: r.to, name: r.name) }

    public static func css(from: CivilDate, to: CivilDate, name: String? = nil) -> String {
        let whose = name.map { cssString($0) + " \\2014  " } ?? ""
        return "@page{@top-left{content:\"\(whose)Health summary \(ReportText.short(from)) to \(ReportText.short(to))\";font:9pt sans-serif}" +
            "@bottom-right{content:\"Page \" counter(page) \" of \" counter(pages);font:9pt sans-serif}}"
    }

    /// `text` for inside a CSS string in a `<style>` element: letters, digits and spaces as they
    /// are, every other character as a CSS escape (no quote, backslash, newline or `<` gets in).
    static func cssString(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar.properties.isAlphabetic || (48...57).contains(scalar.value) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\" + String(scalar.value, radix: 16) + " "
            }
        }
        return out
    }
}
