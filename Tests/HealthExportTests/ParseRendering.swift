import Foundation
import HealthExport
import HealthSpoolCore

/// The outcome of parsing one input, rendered as stable JSON text for golden files: one sample
/// a line, keys in a fixed order, metadata sorted.
struct ParseOutcome {
    var samples: [Sample] = []
    var profiles: [[(String, String)]] = []
    var report: ParseReport?
    var error: Error?

    /// Parses `bytes` as `name` through the public entry point.
    static func parse(_ bytes: [UInt8], name: String) -> ParseOutcome {
        let sink = CollectingSink()
        var outcome = ParseOutcome()
        do {
            let (_, report) = try ExportReader.parse(MemoryByteSource(bytes), name: name, into: sink)
            outcome.report = report
        } catch {
            outcome.error = error
        }
        outcome.samples = sink.samples
        outcome.profiles = sink.profiles
        return outcome
    }

    var rendered: String {
        var lines: [String] = ["{", "  \"samples\": ["]
        for (n, s) in samples.enumerated() {
            var w = JSONWriter()
            w.raw("{\"id\":"); w.string(s.id.description)
            w.raw(",\"type\":"); w.string(s.type)
            w.raw(",\"value\":"); w.number(s.value)
            w.raw(",\"unit\":"); w.string(s.unit)
            w.raw(",\"startDate\":"); w.string(s.start.iso8601Local)
            w.raw(",\"endDate\":"); w.string(s.end.iso8601Local)
            if s.revisable { w.raw(",\"revisable\":true") }
            w.raw(",\"source\":{\"name\":"); w.string(s.source.name)
            if let v = s.source.version { w.raw(",\"version\":"); w.string(v) }
            if let d = s.source.device { w.raw(",\"device\":"); w.string(d) }
            w.raw("},\"metadata\":{")
            for (i, k) in s.metadata.keys.sorted().enumerated() {
                if i > 0 { w.raw(",") }
                w.key(k); w.string(s.metadata[k]!)
            }
            w.raw("}}")
            lines.append("    " + w.text + (n == samples.count - 1 ? "" : ","))
        }
        lines.append("  ],")
        var w = JSONWriter()
        w.raw("[")
        for (n, p) in profiles.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{")
            for (i, (k, v)) in p.enumerated() { if i > 0 { w.raw(",") }; w.key(k); w.string(v) }
            w.raw("}")
        }
        w.raw("]")
        lines.append("  \"profile\": " + w.text + ",")
        w = JSONWriter()
        w.raw("{")
        for (i, k) in (report?.ignored.keys.sorted() ?? []).enumerated() {
            if i > 0 { w.raw(",") }
            w.key(k); w.number(Int64(report!.ignored[k]!))
        }
        w.raw("}")
        lines.append("  \"ignored\": " + w.text + ",")
        lines.append("  \"problems\": [")
        let problems = report?.problems ?? []
        for (n, p) in problems.enumerated() {
            var pw = JSONWriter(); pw.string(p.description)
            lines.append("    " + pw.text + (n == problems.count - 1 ? "" : ","))
        }
        lines.append("  ],")
        var ew = JSONWriter()
        if let error { ew.string(String(describing: error)) } else { ew.raw("null") }
        lines.append("  \"error\": " + ew.text)
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
