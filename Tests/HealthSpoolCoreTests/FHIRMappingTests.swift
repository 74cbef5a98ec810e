import Foundation
import Testing
@testable import HealthSpoolCore

/// The one mapping table: the vital-signs profile's LOINC codes and UCUM units, healthspool's own
/// code system for types without a standard code, and the table printed in docs/formats.md.
@Suite struct FHIRMappingTests {
    @Test(arguments: [
        ("heartRate", "8867-4", "/min"), ("bloodPressureSystolic", "8480-6", "mm[Hg]"), ("bloodPressureDiastolic", "8462-4", "mm[Hg]"),
        ("oxygenSaturation", "59408-5", "%"), ("respiratoryRate", "9279-1", "/min"), ("bodyMass", "29463-7", "kg"),
        ("height", "8302-2", "cm"), ("bodyMassIndex", "39156-5", "kg/m2"), ("bodyTemperature", "8310-5", "Cel"),
    ])
    func vitalSignsHaveTheProfilesCodes(_ type: String, _ code: String, _ unit: String) {
        let c = FHIRMapping.concept(for: type)
        #expect(c.system == FHIRMapping.loinc)
        #expect(c.code == code)
        #expect(c.unit == unit)
        #expect(c.category == "vital-signs")
    }

    @Test func theDaysFiguresAndThePanelHaveTheirCodes() {
        #expect(FHIRMapping.stepsPerDay.code == "41950-7")
        #expect(FHIRMapping.sleepPerNight.code == "93832-4" && FHIRMapping.sleepPerNight.unit == "h")
        #expect(FHIRMapping.bloodPressurePanel.code == "85354-9")
        #expect(FHIRMapping.glucoseMolar.unit == "mmol/L")
    }

    @Test func aTypeWithoutAStandardCodeUsesHealthspoolsCodeSystemNeverLOINC() {
        let c = FHIRMapping.concept(for: "distanceWalkingRunning")
        #expect(c.system == FHIRMapping.dataTypeSystem)
        #expect(c.code == "distanceWalkingRunning")
        #expect(c.unit == "km")
        let unknown = FHIRMapping.concept(for: "HKQuantityTypeIdentifierSomethingNew", unit: "furlong")
        #expect(unknown.system == FHIRMapping.dataTypeSystem && unknown.code == "HKQuantityTypeIdentifierSomethingNew")
        // Every LOINC code in the table is one of the reviewed ones.
        let reviewed: Set<String> = ["8867-4", "40443-4", "8480-6", "8462-4", "59408-5", "9279-1", "29463-7", "8302-2", "39156-5",
                                     "8310-5", "80404-7", "41982-0", "8280-0", "2339-0", "55423-8", "41981-2"]
        #expect(Set(FHIRMapping.table.filter { $0.concept.isLOINC }.map(\.concept.code)) == reviewed)
    }

    @Test func everyRegistryTypeHasACodeAndEveryKnownUnitAUCUMCode() {
        for (type, c) in FHIRMapping.table {
            #expect(!c.code.isEmpty, "\(type)")
            if let dt = DataType.lookup(type), FHIRMapping.ucumCode(dt.unit) == nil {
                Issue.record("\(type): its unit \(dt.unit) has no UCUM code")
            }
        }
    }

    @Test func docsFormatsPrintsTheTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/formats.md").standardizedFileURL
        let text = try String(contentsOf: docs, encoding: .utf8)
        let open = "<!-- fhir-mapping: generated from FHIRMapping.markdown; FHIRMappingTests checks it (HEALTHSPOOL_WRITE_DOCS=1 rewrites it) -->\n"
        let close = "<!-- /fhir-mapping -->"
        let start = try #require(text.range(of: open)), end = try #require(text.range(of: close))
        let printed = String(text[start.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["HEALTHSPOOL_WRITE_DOCS"] == "1" {
            try (String(text[..<start.upperBound]) + FHIRMapping.markdown + String(text[end.lowerBound...]))
                .write(to: docs, atomically: true, encoding: .utf8)
            return
        }
        #expect(printed == FHIRMapping.markdown, "docs/formats.md's table is not FHIRMapping's")
    }
}

/// The gateway's `fhir` formats: each sample a FHIR Observation as the record's whole value, in
/// Confluent v2 and v3 records; a journal tombstone the key with a null value.
@Suite struct FHIRBatchTests {
    let envelope = BatchEnvelope(deviceId: "dev", userId: "alice", appVersion: "0.1.0")
    let now = Timestamp(millis: 1_767_261_600_000)

    func stored() -> [StoredSample] {
        [StoredSample(sample: Sample(type: "heartRate", value: 61, unit: "count/min", start: Timestamp(seconds: 1_767_261_600, utcOffsetSeconds: 3600),
                                     source: SampleSource(name: "Watch")), createdAt: now, rowID: 1),
         StoredSample(sample: Sample(type: "distanceWalkingRunning", value: 0.5, unit: "km", start: Timestamp(seconds: 1_767_261_600),
                                     end: Timestamp(seconds: 1_767_261_660), source: SampleSource(name: "Phone")), createdAt: now, rowID: 2)]
    }

    @Test func v2RecordsCarryObservationsAsTheirValues() throws {
        let v = try JSONParser.parse(BatchEncoder.encode(stored(), format: .fhir, envelope: envelope, now: now))
        let records = try #require(v["records"]?.arrayValue)
        #expect(records.count == 2)
        #expect(records[0]["key"]?.stringValue == "alice")
        let hr = try #require(records[0]["value"])
        #expect(hr["resourceType"]?.stringValue == "Observation")
        #expect(hr["id"]?.stringValue == stored()[0].sample.id.description)
        #expect(hr["code"]?["coding"]?.arrayValue?.first?["code"]?.stringValue == "8867-4")
        #expect(hr["valueQuantity"]?["code"]?.stringValue == "/min")
        #expect(hr["effectiveDateTime"]?.stringValue == "2026-01-01T11:00:00.000+01:00")
        #expect(hr["subject"]?["identifier"]?["value"]?.stringValue == "alice")
        let distance = try #require(records[1]["value"])
        #expect(distance["code"]?["coding"]?.arrayValue?.first?["system"]?.stringValue == FHIRMapping.dataTypeSystem)
        #expect(distance["effectivePeriod"]?["end"]?.stringValue == "2026-01-01T10:01:00.000Z")
        #expect(GatewayFormat.fhir.contentType == "application/vnd.kafka.json.v2+json")
    }

    @Test func aValueJSONCannotHoldIsSaidToBeMissing() {
        let o = FHIRObservation.sample(id: SampleID(bytes: Array(repeating: 1, count: 16)), type: "heartRate", value: .nan, unit: "count/min",
                                       start: now, end: now, source: nil, subject: .user("alice"))
        #expect(o["valueQuantity"] == nil)
        #expect(o["dataAbsentReason"]?["coding"]?.arrayValue?.first?["code"]?.stringValue == "not-a-number")
    }

    @Test func v3RecordsCarryObservationsAndATombstoneIsTheKeyAlone() throws {
        let batch = EncodedBatch()
        batch.fhirUser = "alice"
        batch.setType(JournalType.symptomEntry)
        batch.setSource(JournalType.source, key: nil)
        let id = SampleID(bytes: Array(repeating: 7, count: 16))
        let meta = #"{"symptom":"headache","category":"Head","severity":"severe","relievedBy":["rest"],"aggravatedBy":[]}"#
        func append(_ version: Int, deleted: Bool) {
            Array("severity".utf8).withUnsafeBytes { unit in
                Array(meta.utf8).withUnsafeBytes { m in
                    batch.append(rowID: Int64(version), id: id, value: 3, unit: unit, start: now, end: now, metadata: m, createdAt: now.millis,
                                 version: version, deleted: deleted)
                }
            }
        }
        append(1, deleted: false)
        append(2, deleted: true)
        let body = String(decoding: batch.body(0..<2, format: .fhirV3, envelope: envelope, now: now), as: UTF8.self)
        let lines = body.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let first = try JSONParser.parse(lines[0])
        #expect(first["key"]?["data"]?["id"]?.stringValue == id.description)
        let obs = try #require(first["value"]?["data"])
        #expect(obs["code"]?["text"]?.stringValue == "headache")
        #expect(obs["valueCodeableConcept"]?["coding"]?.arrayValue?.map { $0["code"]?.stringValue } == ["severe", "24484000"])
        let second = try JSONParser.parse(lines[1])
        #expect(second["value"] == nil, "the deletion: the key with no value")
        #expect(second["key"]?["data"]?["id"]?.stringValue == id.description)
    }
}
