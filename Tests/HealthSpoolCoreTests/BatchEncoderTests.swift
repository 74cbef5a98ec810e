import Testing
@testable import HealthSpoolCore

@Suite struct BatchEncoderTests {
    let envelope = BatchEnvelope(deviceId: "dev", userId: "alice", appVersion: "0.1.0")
    let now = Timestamp(millis: 1_767_261_600_000)

    func stored(_ n: Int) -> [StoredSample] {
        (0..<n).map { i in
            StoredSample(sample: Sample(type: "heartRate", value: Double(60 + i), unit: "count/min",
                                        start: Timestamp(seconds: 1_767_261_600 + Int64(i)),
                                        source: SampleSource(name: "Watch", device: "d"), metadata: ["b": "2", "a": "1"]),
                         createdAt: now, rowID: Int64(i + 1))
        }
    }

    @Test func thePlainPayloadHasTheOriginDesignsFields() throws {
        let v = try JSONParser.parse(BatchEncoder.encode(stored(2), format: .json, envelope: envelope, now: now))
        #expect(v["deviceId"]?.stringValue == "dev")
        #expect(v["userId"]?.stringValue == "alice")
        #expect(v["appVersion"]?.stringValue == "0.1.0")
        #expect(v["timestamp"]?.stringValue == "2026-01-01T10:00:00.000Z")
        let s = try #require(v["samples"]?.arrayValue?.first)
        #expect(s["id"]?.stringValue == stored(1)[0].sample.id.description)
        #expect(s["type"]?.stringValue == "heartRate")
        #expect(s["hkType"]?.stringValue == "HKQuantityTypeIdentifierHeartRate")
        #expect(s["source"]?["device"]?.stringValue == "d")
        #expect(s["metadata"]?.objectValue?.map(\.0) == ["a", "b"])
    }

    /// F1 (the apple-xml and hae-json fuzz targets' round trip): a sample whose end is the same
    /// instant as its start in another UTC offset (a zero-length workout logged across a zone
    /// change) was sent with the start's text as its end, so the end's offset was lost.
    @Test(arguments: [
        (Int64(1_767_258_600_000), Int32(3000), Int32(3600), "2026-01-01T10:00:00.000+00:50", "2026-01-01T10:10:00.000+01:00"),
        (Int64(1_707_357_600_000), Int32(-28800), Int32(-32400), "2024-02-07T18:00:00.000-08:00", "2024-02-07T17:00:00.000-09:00"),
        (Int64(1_707_357_600_000), Int32(-28800), Int32(-28800), "2024-02-07T18:00:00.000-08:00", "2024-02-07T18:00:00.000-08:00"),
    ])
    func anEndAtTheStartsInstantKeepsItsOwnOffset(millis: Int64, startOffset: Int32, endOffset: Int32, start: String, end: String) throws {
        let sample = Sample(type: "stepCount", value: 100, unit: "count", start: Timestamp(millis: millis, utcOffsetSeconds: startOffset),
                            end: Timestamp(millis: millis, utcOffsetSeconds: endOffset), source: SampleSource(name: "Watch"))
        let body = BatchEncoder.encode([StoredSample(sample: sample, createdAt: now, rowID: 1)], format: .json, envelope: envelope, now: now)
        let s = try #require(try JSONParser.parse(body)["samples"]?.arrayValue?.first)
        #expect(s["startDate"]?.stringValue == start)
        #expect(s["endDate"]?.stringValue == end)
    }

    @Test func confluentV2RecordsAreKeyedByTheUserAndCarryTheSampleID() throws {
        let v = try JSONParser.parse(BatchEncoder.encode(stored(3), format: .confluentV2, envelope: envelope, now: now))
        let records = try #require(v["records"]?.arrayValue)
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0["key"]?.stringValue == "alice" })
        #expect(records[2]["value"]?["sample"]?["id"]?.stringValue == stored(3)[2].sample.id.description)
    }

    @Test func confluentV3IsOneJSONRecordPerLine() throws {
        let text = String(decoding: BatchEncoder.encode(stored(2), format: .confluentV3, envelope: envelope, now: now), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONParser.parse(String(lines[0]))
        #expect(first["key"]?["data"]?.stringValue == "alice")
        #expect(first["value"]?["type"]?.stringValue == "JSON")
    }

    @Test func aBatchGrowsPastItsFirstBufferAndAnyPartOfItStillReadsBack() throws {
        let samples = (0..<40).map { i in
            var s = stored(40)[i]
            s.sample.metadata = ["note": String(repeating: "é\"", count: 100 + i)]
            return s
        }
        let batch = EncodedBatch(capacity: 256)
        for s in samples { batch.append(s) }
        #expect(batch.count == 40 && batch.rowIDs == samples.map(\.rowID))
        for format in GatewayFormat.native {
            let whole = batch.body(0..<40, format: format, envelope: envelope, now: now)
            #expect(whole == EncodedBatch(samples).body(0..<40, format: format, envelope: envelope, now: now))
        }
        let part = try JSONParser.parse(batch.body(17..<23, format: .json, envelope: envelope, now: now))
        let read = try #require(part["samples"]?.arrayValue)
        #expect(read.map { $0["id"]?.stringValue } == samples[17..<23].map { $0.sample.id.description })
        #expect(read.last?["metadata"]?["note"]?.stringValue == String(repeating: "é\"", count: 122))
    }

    @Test func aWholeJSONBatchSentInPlaceHasTheCopiedBytesAndLeavesItsPartsIntact() throws {
        let batch = EncodedBatch(stored(6))
        let parts = [0..<2, 1..<3, 5..<6, 0..<5].map { batch.body($0, format: .json, envelope: envelope, now: now) }
        // A user id longer than the room kept in front of the objects: that body is copied.
        let long = String(repeating: "u", count: EncodedBatch.headroom + 1)
        let copied = batch.body(0..<6, format: .json, envelope: BatchEnvelope(deviceId: "dev", userId: long, appVersion: "0.1.0"), now: now)
        let inPlace = batch.body(0..<6, format: .json, envelope: envelope, now: now)
        #expect(String(decoding: inPlace, as: UTF8.self) == String(decoding: copied, as: UTF8.self).replacing(long, with: "alice"))
        let read = try #require(JSONParser.parse(inPlace)["samples"]?.arrayValue)
        #expect(read.map { $0["id"]?.stringValue } == stored(6).map { $0.sample.id.description })
        // Writing the envelope around the objects touched none of them.
        #expect([0..<2, 1..<3, 5..<6, 0..<5].map { batch.body($0, format: .json, envelope: envelope, now: now) } == parts)
        #expect(batch.body(0..<6, format: .json, envelope: envelope, now: now) == inPlace)
    }

    @Test func bodiesInUseAtOnceNeverShareABuffer() throws {
        let a = EncodedBatch(stored(3)), b = EncodedBatch(stored(5))
        let expectA = a.body(0..<3, format: .json, envelope: envelope, now: now)
        let expectB = b.body(0..<5, format: .confluentV2, envelope: envelope, now: now)
        for _ in 0..<3 {
            a.withBody(0..<3, format: .json, envelope: envelope, now: now) { outer in
                b.withBody(0..<5, format: .confluentV2, envelope: envelope, now: now) { inner in
                    #expect(Array(inner) == expectB)
                }
                // Kept buffers come back to the pool between rounds; this one is still ours.
                #expect(Array(outer) == expectA)
            }
        }
    }
}
