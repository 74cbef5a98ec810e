import Foundation
import HealthExport
import HealthSpoolCore
import Testing

/// An export.zip's clinical records (`clinical-records/*.json`, named by export.xml's
/// `ClinicalRecord`), `Audiogram` and `VisionPrescription`: the FHIR resource kept byte for
/// byte with its type and date, stable ids, bounded sizes, damage noted and the rest read.
@Suite struct ClinicalRecordsTests {
    static let folder = "Golden/clinical-records"

    static func resources() throws -> [(name: String, bytes: [UInt8])] {
        let dir = try #require(Bundle.module.url(forResource: folder, withExtension: nil))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { (name: $0, bytes: Array(try Data(contentsOf: dir.appendingPathComponent($0)))) }
    }

    static func xml() throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "clinical-export", withExtension: "xml", subdirectory: "Golden"))
        return Array(try Data(contentsOf: url))
    }

    /// The export with its records (and `extra` members), under Apple's folder names.
    static func archive(_ extra: [(String, [UInt8])] = [], leaving: Set<String> = []) throws -> [UInt8] {
        var z = TestZipWriter()
        z.add(.init(name: Array("apple_health_export/export.xml".utf8), data: try xml()))
        for (name, data) in try resources() where !leaving.contains(name) {
            z.add(.init(name: Array("apple_health_export/clinical-records/\(name)".utf8), data: data))
        }
        for (name, data) in extra { z.add(.init(name: Array(("apple_health_export/" + name).utf8), data: data)) }
        return z.finish()
    }

    static func records(_ outcome: ParseOutcome) -> [String: Sample] {
        Dictionary(outcome.samples.filter { $0.type == "clinicalRecord" }.map { ($0.metadata["file"].map(ExportName.last) ?? "", $0) },
                   uniquingKeysWith: { a, _ in a })
    }

    @Test func everyRecordIsStoredByteForByteWithItsTypeDateAndProvider() throws {
        let outcome = ParseOutcome.parse(try Self.archive(), name: "export.zip")
        #expect(outcome.error == nil)
        let files = try Self.resources()
        let records = Self.records(outcome)
        #expect(records.count == files.count)
        for (name, bytes) in files {
            let r = try #require(records[name], "\(name) was not read")
            let resource = try #require(r.metadata["resource"])
            #expect(Array(resource.utf8) == bytes, "\(name) is not kept byte for byte")
            let resourceType = try #require(r.metadata["resourceType"])
            #expect(name.hasPrefix(resourceType + "-"))
            #expect(r.unit == "count" && r.value == 1)
            let dstu2 = r.metadata["resourceId"]?.hasPrefix("T") == true
            #expect(r.metadata["fhirVersion"] == (dstu2 ? "1.0.2" : "4.0.1"))
            #expect(r.source.name == (dstu2 ? "Valley Clinic" : "Lakeside Health"))
            #expect(r.metadata["recordType"]?.hasPrefix("HKClinicalTypeIdentifier") == true)
        }
        // Each resource's own date, by its version's field names.
        let condition = try #require(records["Condition-7E1C0D2A-0B7A-4C7E-9F5E-2B6A9F1D3C11.json"])
        #expect(condition.start.iso8601UTC.hasPrefix("2021-03-15T00:00:00"))
        #expect(condition.metadata["dateFrom"] == "onsetDateTime")
        #expect(condition.metadata["display"] == "Essential hypertension" && condition.metadata["status"] == "active")
        let order = try #require(records["MedicationOrder-2D3E4F5A-6B7C-4D8E-8F9A-0B1C2D3E4FCC.json"])
        #expect(order.metadata["dateFrom"] == "dateWritten" && order.metadata["display"] == "Albuterol inhaler")
        let dstu2Allergy = try #require(records["AllergyIntolerance-1C2D3E4F-5A6B-4C7D-9E8F-9A0B1C2D3EBB.json"])
        #expect(dstu2Allergy.metadata["display"] == "Peanut" && dstu2Allergy.metadata["status"] == "active")
        let asthma = try #require(records["Condition-0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2CAA.json"])
        #expect(asthma.start.iso8601UTC.hasPrefix("2009-01-01"), "a year alone is its first day")
        let procedure = try #require(records["Procedure-5F6A7B8C-9D0E-4F1A-8B2C-3D4E5F6A7B88.json"])
        #expect(procedure.metadata["dateFrom"] == "performedPeriod.start")
        let immunization = try #require(records["Immunization-3E4F5A6B-7C8D-4E9F-9A0B-1C2D3E4F5ADD.json"])
        #expect(immunization.metadata["dateFrom"] == "date")
    }

    @Test func twoRecordsOfOneDayAndProviderKeepTheirOwnIdsAndADropAgainFindsThem() throws {
        let first = ParseOutcome.parse(try Self.archive(), name: "export.zip").samples.filter { $0.type == "clinicalRecord" }
        let again = ParseOutcome.parse(try Self.archive(), name: "export.zip").samples.filter { $0.type == "clinicalRecord" }
        #expect(Set(first.map(\.id)).count == first.count)
        #expect(Set(first.map(\.id)) == Set(again.map(\.id)))
        // The lab result and its report share the day and the provider, not the id.
        let labDay = first.filter { $0.start.iso8601UTC.hasPrefix("2024-10-28") }
        #expect(labDay.count == 2 && labDay[0].id != labDay[1].id)
    }

    @Test func anOversizedOrDamagedRecordIsNotedAndTheRestAreRead() throws {
        var big = Array(#"{"resourceType":"DocumentReference","id":"big","status":"current","content":[{"attachment":{"data":""#.utf8)
        big += [UInt8](repeating: 0x41, count: 1 << 20)
        big += Array(#""}}]}"#.utf8)
        let broken = Array(#"{"resourceType": "Condition", "id": "cut", "onsetDateTime": "2020-01-0"#.utf8)
        let noDate = Array(#"{"resourceType": "Condition", "id": "undated"}"#.utf8)
        let outcome = ParseOutcome.parse(try Self.archive([("clinical-records/DocumentReference-big.json", big),
                                                           ("clinical-records/Condition-cut.json", broken),
                                                           ("clinical-records/Condition-undated.json", noDate)]), name: "export.zip")
        #expect(outcome.error == nil)
        #expect(Self.records(outcome).count == (try Self.resources()).count)
        let problems = (outcome.report?.problems ?? []).map(\.message)
        #expect(problems.contains { $0.contains("DocumentReference-big.json") && $0.contains("larger than") })
        #expect(problems.contains { $0.contains("Condition-cut.json") && $0.contains("not JSON") })
        #expect(problems.contains { $0.contains("Condition-undated.json") && $0.contains("no date") })
    }

    @Test func aRecordNoElementNamesIsKeptUnderItsFileWithAnUnknownVersion() throws {
        let files = try Self.resources()
        let (name, bytes) = files[0]
        var z = TestZipWriter()
        z.add(.init(name: Array("apple_health_export/export.xml".utf8), data: ExportPartsTests.xml))
        z.add(.init(name: Array("apple_health_export/clinical-records/\(name)".utf8), data: bytes))
        let outcome = ParseOutcome.parse(z.finish(), name: "export.zip")
        let r = try #require(outcome.samples.first { $0.type == "clinicalRecord" })
        #expect(r.metadata["fhirVersion"] == "unknown" && r.source.name == "Apple Health")
        #expect(Array(r.metadata["resource"]!.utf8) == bytes)
    }

    @Test func anAudiogramKeepsEveryPointPerEar() throws {
        let outcome = ParseOutcome.parse(try Self.archive(), name: "export.zip")
        let a = try #require(outcome.samples.first { $0.type == "audiogram" })
        #expect(a.value == 6 && a.unit == "count" && a.source.name == "Mimi Hearing")
        let text = try #require(a.metadata["points"])
        let points = try #require(try JSONParser.parse(text).arrayValue)
        #expect(points.map { $0["frequencyHz"]?.doubleValue } == [250, 500, 1000, 2000, 4000, 8000])
        #expect(points.map { $0["left"]?.doubleValue } == [10, 15, 15, 20, 35, 45])
        #expect(points.map { $0["right"]?.doubleValue } == [5, 10, 10, 15, 25, 40])
        #expect(points[0]["leftMasked"] == .bool(false))
        #expect(a.metadata["unit"] == "dBHL")
    }

    @Test func glassesAndContactsOfOneDayAreTwoPrescriptionsWithEachEye() throws {
        let outcome = ParseOutcome.parse(try Self.archive(), name: "export.zip")
        let v = outcome.samples.filter { $0.type == "visionPrescription" }
        #expect(v.map(\.value).sorted() == [1, 2])
        #expect(Set(v.map(\.id)).count == 2)
        let glasses = try #require(v.first { $0.value == 1 })
        let eye = try #require(glasses.metadata["rightEye"])
        let right = try JSONParser.parse(eye)
        #expect(right["sphere"]?.stringValue == "-1.25" && right["axis"]?.stringValue == "90")
        #expect(glasses.metadata["expirationDate"]?.hasPrefix("2026-02-20") == true)
        let contacts = try #require(v.first { $0.value == 2 })
        #expect(contacts.metadata["brand"] == "Acuvue Oasys")
    }

    @Test func aBareExportXMLReadsTheAudiogramAndNamesNoRecordFiles() throws {
        let outcome = ParseOutcome.parse(try Self.xml(), name: "export.xml")
        #expect(outcome.error == nil)
        #expect(outcome.samples.contains { $0.type == "audiogram" })
        #expect(!outcome.samples.contains { $0.type == "clinicalRecord" })
    }

    @Test func recordsWhoseFilesTheZipLacksAreNamedAndTheOthersRead() throws {
        let names = try Self.resources().map(\.name)
        let gone = Set(names.prefix(2))
        let outcome = ParseOutcome.parse(try Self.archive(leaving: gone), name: "export.zip")
        let problems = (outcome.report?.problems ?? []).map(\.message)
        let note = try #require(problems.first { $0.contains("the zip does not hold") })
        #expect(note.hasPrefix("2 ClinicalRecords name files"))
        for name in gone { #expect(note.contains("'\(name)'")) }
        #expect(Self.records(outcome).count == names.count - 2)
        let whole = ParseOutcome.parse(try Self.archive(), name: "export.zip")
        #expect(!(whole.report?.problems ?? []).contains { $0.message.contains("does not hold") })
    }
}

/// The last component of a zip member's name.
enum ExportName {
    static func last(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }
}
