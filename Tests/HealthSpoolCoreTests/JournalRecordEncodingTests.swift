import Testing
@testable import HealthSpoolCore

/// Journal records on the wire: versions, per-record keys and tombstones in each format.
@Suite struct JournalRecordEncodingTests {
    let envelope = BatchEnvelope(deviceId: "dev", userId: "alice", appVersion: "0.1.0")
    let now = Timestamp(millis: 1_767_261_600_000)
    let entryID = SampleID(bytes: [UInt8](repeating: 7, count: 16))

    /// A measurement, version 2 of an entry, and the entry's tombstone.
    func batch() -> EncodedBatch {
        let b = EncodedBatch()
        let measurement = StoredSample(sample: Sample(type: "heartRate", value: 60, unit: "count/min", start: now, source: SampleSource(name: "W")),
                                       createdAt: now, rowID: 1)
        b.append(measurement)
        b.setType(JournalType.symptomEntry)
        b.setSource(JournalType.source, key: nil)
        let unit = Array("severity".utf8), metadata = Array("{\"symptom\":\"headache\"}".utf8)
        unit.withUnsafeBytes { u in
            metadata.withUnsafeBytes { m in
                b.append(rowID: 2, id: entryID, value: 3, unit: u, start: now, end: now, metadata: m, createdAt: now.millis, version: 2)
                b.append(rowID: 3, id: entryID, value: 3, unit: u, start: now, end: now, metadata: m, createdAt: now.millis, version: 3, deleted: true)
            }
        }
        return b
    }

    @Test func theJSONFormatCarriesTheVersionAndMarksTheTombstoneDeleted() throws {
        let v = try JSONParser.parse(batch().body(0..<3, format: .json, envelope: envelope, now: now))
        let s = try #require(v["samples"]?.arrayValue)
        #expect(s[0]["version"] == nil && s[0]["deleted"] == nil)
        #expect(s[1]["version"]?.intValue == 2 && s[1]["deleted"] == nil)
        #expect(s[1]["hkType"] == nil)   // not a HealthKit type
        #expect(s[2]["version"]?.intValue == 3 && s[2]["deleted"]?.boolValue == true && s[2]["id"]?.stringValue == entryID.description)
    }

    @Test func confluentV2KeysJournalRecordsByUserAndIDAndATombstoneHasANullValue() throws {
        let v = try JSONParser.parse(batch().body(0..<3, format: .confluentV2, envelope: envelope, now: now))
        let r = try #require(v["records"]?.arrayValue)
        #expect(r[0]["key"]?.stringValue == "alice")
        #expect(r[1]["key"]?["userId"]?.stringValue == "alice" && r[1]["key"]?["id"]?.stringValue == entryID.description)
        #expect(r[1]["value"]?["sample"]?["version"]?.intValue == 2)
        #expect(r[2]["key"] == r[1]["key"])
        #expect(r[2]["value"]?.isNull == true)
    }

    @Test func confluentV3LeavesATombstonesValueOut() throws {
        let text = String(decoding: batch().body(0..<3, format: .confluentV3, envelope: envelope, now: now), as: UTF8.self)
        let lines = try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(lines.count == 3)
        #expect(lines[0]["key"]?["data"]?.stringValue == "alice")
        #expect(lines[1]["key"]?["data"]?["id"]?.stringValue == entryID.description)
        #expect(lines[1]["value"]?["data"]?["sample"]?["version"]?.intValue == 2)
        #expect(lines[2]["key"] == lines[1]["key"] && lines[2]["value"] == nil)
        // Narrowing a batch down to the tombstone alone still sends it as one.
        let alone = try JSONParser.parse(String(decoding: batch().body(2..<3, format: .confluentV3, envelope: envelope, now: now), as: UTF8.self))
        #expect(alone["value"] == nil && alone["key"]?["data"]?["id"]?.stringValue == entryID.description)
    }
}
