import HealthSpoolCore

/// `healthspool records`: the records page's lists, hearing tests and prescriptions as terminal
/// text and as JSON, from the same view model.
extension HealthRecords {
    /// The lists (each left out when empty), then each audiogram's and prescription's table; a
    /// plain line when nothing is stored.
    public var text: String {
        guard !isEmpty || hasHearingOrVision else {
            return "No health records stored. On the iPhone, Health → Browse → Health Records connects your providers; the next full export brings what they sent."
        }
        var parts: [String] = []
        for l in lists where !l.items.isEmpty {
            parts.append(([l.title] + l.items.map { "  " + Self.line($0) }).joined(separator: "\n"))
        }
        if !labs.isEmpty { parts.append((["Lab results"] + labs.map { "  " + $0.line }).joined(separator: "\n")) }
        if !audiograms.isEmpty {
            parts.append((["Hearing tests"] + audiograms.flatMap { a in
                ["  \(a.date.iso8601Local.prefix(10)) (\(a.source)), thresholds in dB HL:"]
                    + TextTable(["Frequency", "Left ear", "Right ear"], a.points.map { p in
                        [p.frequencyText, p.left.map(Self.plain) ?? "–", p.right.map(Self.plain) ?? "–"]
                    }).lines(indent: "    ")
            }).joined(separator: "\n"))
        }
        if !prescriptions.isEmpty {
            parts.append((["Vision prescriptions"] + prescriptions.flatMap { p in
                ["  " + Self.heading(p)] + TextTable(["", "Right eye", "Left eye"], p.rows.map { [$0.label, $0.right ?? "–", $0.left ?? "–"] })
                    .lines(indent: "    ")
            }).joined(separator: "\n"))
        }
        return parts.joined(separator: "\n\n")
    }

    /// `Contact lenses (Acuvue Oasys), issued 2024-02-20, expires 2025-02-20 (Apple Health)`.
    public static func heading(_ p: Prescription) -> String {
        p.kindText + (p.brand.map { " (\($0))" } ?? "") + ", issued \(p.issued.iso8601Local.prefix(10))"
            + (p.expires.map { ", expires \($0)" } ?? "") + " (\(p.source))"
    }

    /// One list item as JSON (the doctor's summary's `healthRecords` too).
    public static func json(_ i: Item) -> JSONValue {
        .object([("name", .string(i.name)), ("date", .string(i.date.iso8601Local)), ("status", i.status.map(JSONValue.string) ?? .null),
                 ("provider", .string(i.provider)), ("resourceType", .string(i.resourceType))])
    }

    /// The four lists by id (`conditions`, `allergies`, `provider-medications`,
    /// `immunizations`), empty ones too.
    public var listsJSON: [(String, JSONValue)] {
        lists.map { ($0.id, .array($0.items.map(Self.json))) }
    }

    /// The lists, `labTrends` (each test's values, oldest first), `audiograms` (points in dB HL, `null` for an ear not tested) and
    /// `visionPrescriptions` (each eye's attributes as the export wrote them); every key present.
    public var json: JSONValue {
        func n(_ v: Double?) -> JSONValue { v.map(JSONValue.number) ?? .null }
        func s(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        func eye(_ e: [String: String]) -> JSONValue { .object(e.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }) }
        return .object(listsJSON + [
            ("labTrends", .array(labs.map(\.json))),
            ("audiograms", .array(audiograms.map { a in
                .object([("date", .string(a.date.iso8601Local)), ("source", .string(a.source)), ("unit", .string("dBHL")),
                         ("points", .array(a.points.map { .object([("frequencyHz", .number($0.frequencyHz)), ("left", n($0.left)), ("right", n($0.right))]) }))])
            })),
            ("visionPrescriptions", .array(prescriptions.map { p in
                .object([("issued", .string(p.issued.iso8601Local)), ("expires", s(p.expires)), ("kind", .string(p.contacts ? "contacts" : "glasses")),
                         ("brand", s(p.brand)), ("source", .string(p.source)), ("rightEye", eye(p.rightEye)), ("leftEye", eye(p.leftEye))])
            })),
        ])
    }
}
