@testable import HealthSpoolCore
@testable import HealthSpoolGateway
import Testing

/// The encoder's byte-level fast paths agree with the String-based ones, and the Confluent
/// bodies have the shape the REST proxies accept.
@Suite struct BatchEncoderWireTests {
    let envelope = BatchEnvelope(deviceId: "dev-1", userId: "al\"ice", appVersion: "0.1.0")

    func stored(_ n: Int, offset: Int32 = 3600) -> [StoredSample] {
        (0..<n).map { i in
            let t = Timestamp(millis: 1_767_225_600_000 + Int64(i) * 1_234_567, utcOffsetSeconds: offset)
            return StoredSample(sample: Sample(type: "heartRate", value: Double(60 + i) + (i % 2 == 0 ? 0 : 0.5), unit: "count/min",
                                               start: t, end: t, source: SampleSource(name: "strap\n\"x\"", version: nil, device: nil),
                                               metadata: i == 0 ? ["b": "2", "a": "ü"] : [:]),
                                createdAt: t, rowID: Int64(i + 1))
        }
    }

    @Test(arguments: [0, 1, -1, 3600, -34_200, 20_700] as [Int32])
    func timestampsMatchTheirStrings(offset: Int32) {
        for millis: Int64 in [0, -1, 1_767_225_600_123, -86_400_001, 253_402_300_799_999, 951_782_400_000] {
            let t = Timestamp(millis: millis, utcOffsetSeconds: offset)
            var w = JSONWriter()
            w.timestamp(t, utc: false)
            w.raw(" ")
            w.timestamp(t, utc: true)
            #expect(w.text == "\"\(t.iso8601Local)\" \"\(t.iso8601UTC)\"")
        }
    }

    @Test func numbersMatchTheCanonicalForm() {
        for v in [0.0, -0.0, 1, -1, 61, 1e14, -123_456_789_012, 0.5, 98.6, -3.25, 1e16, Double.greatestFiniteMagnitude] {
            var w = JSONWriter()
            w.number(v)
            #expect(w.text == SampleIdentity.canonicalNumber(v))
        }
        for v in [Int64.min, Int64.max, 0, -7, 1_000_000] {
            var w = JSONWriter()
            w.number(v)
            #expect(w.text == String(v))
        }
    }

    @Test(arguments: [GatewayFormat.json, .confluentV2, .confluentV3])
    func everyRecordCarriesItsIdAndTheUserKey(format: GatewayFormat) throws {
        let samples = stored(3)
        let body = BatchEncoder.encode(samples, format: format, envelope: envelope, now: Timestamp(millis: 1_767_225_605_000))
        let records: [JSONValue]
        switch format.wire {
        case .json:
            let v = try JSONParser.parse(body)
            #expect(v["userId"]?.stringValue == "al\"ice")
            records = (v["samples"]?.arrayValue ?? []).map { JSONValue.object([("value", .object([("sample", $0)]))]) }
        case .confluentV2:
            records = try #require(JSONParser.parse(body)["records"]?.arrayValue)
            #expect(records.allSatisfy { $0["key"]?.stringValue == "al\"ice" })
        case .confluentV3:
            let lines = String(decoding: body, as: UTF8.self).split(separator: "\n")
            records = try lines.map { try JSONParser.parse(Array($0.utf8)) }
            #expect(records.allSatisfy { $0["key"]?["type"]?.stringValue == "JSON" && $0["key"]?["data"]?.stringValue == "al\"ice" })
            #expect(records.allSatisfy { $0["value"]?["type"]?.stringValue == "JSON" })
        }
        #expect(records.count == 3)
        for (r, s) in zip(records, samples) {
            let value = format == .confluentV3 ? r["value"]?["data"] : r["value"]
            #expect(value?["sample"]?["id"]?.stringValue == s.sample.id.description)
            #expect(value?["sample"]?["startDate"]?.stringValue == s.sample.start.iso8601Local)
            #expect(value?["sample"]?["source"]?["name"]?.stringValue == "strap\n\"x\"")
            if format != .json {
                #expect(value?["userId"]?.stringValue == "al\"ice")
                #expect(value?["deviceId"]?.stringValue == "dev-1")
                #expect(value?["timestamp"]?.stringValue == "2026-01-01T00:00:05.000Z")
            }
        }
    }

    @Test func gzipRoundTrips() {
        let body = BatchEncoder.encode(stored(100), format: .json, envelope: envelope, now: Timestamp(millis: 0))
        let packed = gzipCompress(body)
        #expect(packed.count < body.count / 4)
        #expect(Array(packed.prefix(2)) == [0x1F, 0x8B])
    }
}
