/// The Prometheus text exposition format, version 0.0.4 (what node_exporter's textfile
/// collector reads and what a scrape of `/metrics` answers): for each family a `# HELP` and a
/// `# TYPE` line, then one line per sample, `name{label="value",…} value`, each ending in `\n`.
public enum PrometheusText {
    /// The media type of a scrape's answer.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The families as exposition text, in the order given.
    public static func render(_ families: [MetricFamily]) -> String {
        var out = ""
        out.reserveCapacity(families.count * 160)
        for family in families {
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            out += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                out += family.name + sample.suffix
                if !sample.labels.isEmpty {
                    out += "{" + sample.labels.map { "\($0.name)=\"\(escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
                }
                out += " " + number(sample.value) + "\n"
            }
        }
        return out
    }

    /// A label value with `\`, `"` and line feeds escaped (`\\`, `\"`, `\n`). Works on Unicode
    /// scalars: a CR LF pair is one `Character` in Swift, and its LF must be escaped all the same.
    public static func escapeLabelValue(_ value: String) -> String { escape(value, quote: true) }

    /// A help text with `\` and line feeds escaped (`\\`, `\n`); quotes stay as they are.
    public static func escapeHelp(_ text: String) -> String { escape(text, quote: false) }

    static func escape(_ text: String, quote: Bool) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\n" || (quote && $0 == "\"") }) else { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            switch c {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\"" where quote: out.append(contentsOf: "\\\"".unicodeScalars)
            default: out.append(c)
            }
        }
        return String(out)
    }

    /// A sample value (or an `le` bound): whole numbers without a fraction (`3`, not `3.0`),
    /// `+Inf`, `-Inf` and `NaN` as Prometheus spells them, others as Swift's shortest exact form.
    public static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded(), abs(v) < 9_007_199_254_740_992 { return String(Int64(v)) }
        return "\(v)"
    }
}

/// How often metrics are written.
public enum MetricsTiming {
    /// The textfile is rewritten at most this often (and only when a figure changed).
    public static let textfileIntervalSeconds = 5
}
