@testable import HealthExport
import HealthSpoolCore

/// The encode/parse property: samples a parser produced, encoded as the gateway's `json` body and
/// read back by the native parser (which takes that body as `{"samples": [...]}`), are the same
/// samples: type, value, unit, interval with its UTC offsets, source, metadata and id. The wire
/// does not carry `revisable` (it only decides whether the value is part of the id), so it is
/// copied over before the ids are compared.
enum RoundTrip {
    static let envelope = BatchEnvelope(deviceId: "fuzz-device", userId: "fuzz-user", appVersion: "0")

    static func check(_ samples: [Sample], from parser: String) {
        guard !samples.isEmpty else { return }
        let stored = samples.enumerated().map { StoredSample(sample: $1, createdAt: Timestamp(millis: 0), rowID: Int64($0)) }
        let body = BatchEncoder.encode(stored, format: .json, envelope: envelope, now: Timestamp(millis: 0))
        let back = ParseOutcome { try NativeParser.parse(body, into: $0) }
        let text = String(decoding: body.prefix(2000), as: UTF8.self)
        if let error = back.error { propertyFailed("\(parser): its samples, encoded, do not parse back: \(error)\n\(text)") }
        guard back.samples.count == samples.count else {
            propertyFailed("\(parser): \(samples.count) samples encoded, \(back.samples.count) parsed back: "
                           + "\(back.report?.problems.prefix(3).map(\.description) ?? [])\n\(text)")
        }
        for (n, (a, parsed)) in zip(samples, back.samples).enumerated() {
            var b = parsed
            b.revisable = a.revisable
            b.refreshID()
            // A keyed sample (`Sample(keyed:)`: a clinical record, a medication dose) has an id
            // its fields do not give; the native format does not carry ids, so it is compared
            // without it.
            var plain = a
            plain.refreshID()
            if plain.id != a.id {
                b = Sample(storedID: a.id, type: b.type, value: b.value, unit: b.unit, start: b.start, end: b.end,
                           source: b.source, metadata: b.metadata, revisable: b.revisable)
            }
            guard a == b, a.start.utcOffsetSeconds == b.start.utcOffsetSeconds,
                  a.end.utcOffsetSeconds == b.end.utcOffsetSeconds else {
                propertyFailed("\(parser): sample #\(n) changed on the way through the encoder:\n  \(a)\n  \(b)\n\(text)")
            }
        }
    }
}
