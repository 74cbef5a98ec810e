import Foundation
@testable import HealthJournal
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Testing

/// The FHIR document of a fixed week made from a real store (UTC): compared with the golden
/// bundle beside this file (`Golden/fhir-week.json`; HEALTHSPOOL_UPDATE_GOLDEN=1 writes it), and
/// its structure checked: the Composition first, every reference resolvable, stable ids.
/// tests/integration/test_fhir.py validates the same golden file with `fhir.resources`.
@Suite struct FHIRDocumentTests {
    static let now = Timestamp(millis: 1_773_144_000_000, utcOffsetSeconds: 0)   // 2026-03-10T12:00Z
    static let from = CivilDate(parsing: "2026-03-02")!, to = CivilDate(parsing: "2026-03-08")!
    static let key = "alice@device-1"

    static func t(_ text: String) -> Timestamp { WallClock.parse(text, now: now, zone: ZoneRules.utc)! }

    /// The week: symptoms, a medication with a reminder and doses, blood pressure, heart rate
    /// (70 readings on one day: per day), glucose, weight, respiratory rate, temperature, steps,
    /// a night's sleep. Returns the document twice (made twice from the same store) and the
    /// symptom entries' ids (random: replaced by fixed ones in the golden text).
    static func documents(glucoseUnit: String = "mmol/L") throws -> (FHIRDocument, FHIRDocument, [SampleID]) {
        let (context, dir) = try JournalRunnerTests.context(["HEALTHSPOOL_JOURNAL_GLUCOSE_UNIT": glucoseUnit,
                                                             "HEALTHSPOOL_REPORT_NAME": "Alice Example"])
        defer { _ = try? FileSystem.removeTree(dir) }
        return try JournalRunner.run(configuration: context, now: now, announce: { _ in }) { r in
            try r.entries.logSymptom(SymptomLog(symptom: "headache", severity: .severe, at: t("2026-03-03 08:00"), category: "Head",
                                                relievedBy: ["rest"], aggravatedBy: ["screens"]))
            try r.entries.logSymptom(SymptomLog(symptom: "nausea <b>", severity: .debilitating, at: t("2026-03-04 22:00"), category: "Stomach"))
            let j = try r.records()
            _ = try j.addMedication(Medication(name: "ibuprofen", dose: "400 mg", prescriber: "Dr Weiss", directions: "with food"), now: now)
            _ = try j.addReminder(name: "Take ibuprofen", kind: nil, times: [TimeOfDay(parsing: "08:00")!], rule: RecurrenceRule(.daily),
                                  start: from, medication: "ibuprofen", now: t("2026-03-01 12:00"))
            for day in 2...7 { _ = try j.takeDose("ibuprofen", at: t("2026-03-0\(day) 08:10")) }
            _ = try j.measure(.bloodPressure(systolic: 128, diastolic: 82), at: t("2026-03-03 08:00"), now: now)
            _ = try j.measure(.bloodGlucose(99, unit: "mg/dL"), at: t("2026-03-03 08:30"), now: now)
            _ = try j.measure(.bodyMass(71.5, unit: "kg"), at: t("2026-03-04 07:00"), now: now)
            _ = try j.measure(.oxygenSaturation(97), at: t("2026-03-04 07:05"), now: now)
            _ = try j.measure(.steps(5000, from: t("2026-03-03 10:00"), to: t("2026-03-03 11:00")), at: now, now: now)
            let watch = SampleSource(name: "Apple Watch", device: "Watch")
            var samples = (0..<70).map { i in
                Sample(type: "heartRate", value: Double(60 + i % 20), unit: "count/min", start: t("2026-03-05 09:00").adding(millis: Int64(i) * 60_000),
                       source: watch)
            }
            samples.append(Sample(type: "respiratoryRate", value: 14, unit: "count/min", start: t("2026-03-05 23:00"), source: watch))
            samples.append(Sample(type: "bodyTemperature", value: 36.8, unit: "degC", start: t("2026-03-06 07:00"), source: watch))
            samples.append(Sample(type: "sleepAnalysis", value: 420, unit: "min", start: t("2026-03-05 23:30"), end: t("2026-03-06 06:30"),
                                  source: watch, metadata: ["sleepStage": "HKCategoryValueSleepAnalysisAsleepCore"]))
            _ = try j.store.insert(samples, now: now)
            let reports = try r.reports()
            let a = try reports.fhirDocument(from: from, to: to, now: now, patientKey: key)
            let b = try reports.fhirDocument(from: from, to: to, now: now, patientKey: key)
            return (a, b, a.report.symptomEntries.map(\.id))
        }
    }

    /// The bundle's text, indented, with the symptom entries' random ids replaced in order.
    static func text(_ d: FHIRDocument, entries: [SampleID]) -> String {
        var s = pretty(d.bundle)
        for (i, id) in entries.enumerated() {
            s = s.replacingOccurrences(of: id.description, with: "00000000-0000-8000-8000-00000000000\(i + 1)")
        }
        return s
    }

    @Test func theWeekMatchesItsGoldenBundle() throws {
        let (d, _, ids) = try Self.documents()
        let actual = Self.text(d, entries: ids)
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/fhir-week.json")
        if ProcessInfo.processInfo.environment["HEALTHSPOOL_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "the week's FHIR bundle differs from Golden/fhir-week.json")
    }

    @Test func aDocumentStartsWithItsCompositionAndEveryReferenceResolves() throws {
        let (d, _, _) = try Self.documents()
        let b = d.bundle
        #expect(b["type"]?.stringValue == "document")
        let entries = try #require(b["entry"]?.arrayValue)
        #expect(entries.first?["resource"]?["resourceType"]?.stringValue == "Composition")
        let urls = Set(entries.compactMap { $0["fullUrl"]?.stringValue })
        #expect(urls.count == entries.count, "every fullUrl once")
        var references: [String] = []
        func walk(_ v: JSONValue) {
            if let o = v.objectValue {
                for (k, x) in o { if k == "reference", let s = x.stringValue { references.append(s) } else { walk(x) } }
            } else if let a = v.arrayValue { a.forEach(walk) }
        }
        walk(b)
        #expect(!references.isEmpty)
        #expect(references.filter { !urls.contains($0) } == [])
        for e in entries {
            #expect(e["fullUrl"]?.stringValue == "urn:uuid:" + (e["resource"]?["id"]?.stringValue ?? "-"))
        }
    }

    @Test func theSameWeekTwiceHasTheSameIdsAndReadingsKeepTheirSampleIds() throws {
        let (a, b, _) = try Self.documents()
        func ids(_ d: FHIRDocument) -> [String] { d.bundle["entry"]?.arrayValue?.compactMap { $0["fullUrl"]?.stringValue } ?? [] }
        #expect(ids(a) == ids(b))
        let bp = try #require(a.report.measurements.first { $0.kind == "bloodPressure" }?.readings.first?.id)
        #expect(ids(a).contains("urn:uuid:\(bp)"), "the panel is named by its systolic sample's id")
    }

    @Test func vitalSignsCarryTheirLOINCCodesAndUCUMUnits() throws {
        let (d, _, _) = try Self.documents(glucoseUnit: "mg/dL")
        let resources = d.bundle["entry"]?.arrayValue?.compactMap { $0["resource"] } ?? []
        func observation(_ code: String) -> JSONValue? {
            resources.first { $0["code"]?["coding"]?.arrayValue?.first?["code"]?.stringValue == code }
        }
        let bp = try #require(observation("85354-9"))
        #expect(bp["component"]?.arrayValue?.compactMap { $0["code"]?["coding"]?.arrayValue?.first?["code"]?.stringValue } == ["8480-6", "8462-4"])
        #expect(bp["component"]?.arrayValue?.first?["valueQuantity"]?["code"]?.stringValue == "mm[Hg]")
        #expect(observation("8867-4")?["valueQuantity"]?["code"]?.stringValue == "/min")
        #expect(observation("8867-4")?["effectivePeriod"] != nil, "70 readings in a day: the day's mean")
        #expect(observation("9279-1")?["valueQuantity"]?["value"]?.doubleValue == 14)
        #expect(observation("8310-5")?["valueQuantity"]?["code"]?.stringValue == "Cel")
        #expect(observation("29463-7")?["valueQuantity"]?["value"]?.doubleValue == 71.5)
        #expect(observation("59408-5")?["category"]?.arrayValue?.first?["coding"]?.arrayValue?.first?["code"]?.stringValue == "vital-signs")
        #expect(observation("2339-0")?["valueQuantity"]?["value"]?.doubleValue == 99, "glucose in mg/dL, the chosen unit")
        #expect(observation("41950-7")?["valueQuantity"]?["value"]?.doubleValue == 5000)
        #expect(observation("93832-4")?["valueQuantity"]?["value"]?.doubleValue == 7, "seven hours asleep")
    }

    @Test func glucoseIsSentInMillimolesWhenThatIsTheChosenUnit() throws {
        let (d, _, _) = try Self.documents(glucoseUnit: "mmol/L")
        let glucose = d.bundle["entry"]?.arrayValue?.compactMap { $0["resource"] }
            .first { $0["code"]?["coding"]?.arrayValue?.first?["code"]?.stringValue == "15074-8" }
        #expect(glucose?["valueQuantity"]?["code"]?.stringValue == "mmol/L")
        #expect(glucose?["valueQuantity"]?["value"]?.doubleValue == 5.4944)
    }

    @Test func theMedicationCarriesItsAdherenceAndTheSymptomsTheirSeverity() throws {
        let (d, _, _) = try Self.documents()
        let resources = d.bundle["entry"]?.arrayValue?.compactMap { $0["resource"] } ?? []
        let med = try #require(resources.first { $0["resourceType"]?.stringValue == "MedicationStatement" })
        #expect(med["medicationCodeableConcept"]?["text"]?.stringValue == "ibuprofen")
        let adherence = med["extension"]?.arrayValue?.first?["extension"]?.arrayValue ?? []
        let figures = Dictionary(uniqueKeysWithValues: adherence.compactMap { e in e["url"]?.stringValue.map { ($0, e["valueInteger"]?.intValue ?? -1) } })
        #expect(figures == ["taken": 6, "due": 7, "onTime": 6, "late": 0, "missed": 1])
        let symptoms = resources.filter { $0["code"]?["coding"]?.arrayValue?.first?["code"]?.stringValue == "symptomEntry" }
        #expect(symptoms.compactMap { $0["valueCodeableConcept"]?["text"]?.stringValue }.sorted() == ["debilitating", "severe"])
        #expect(symptoms.contains { $0["code"]?["text"]?.stringValue == "nausea <b>" })
        let patient = try #require(resources.first { $0["resourceType"]?.stringValue == "Patient" })
        #expect(patient.objectValue?.map(\.0) == ["resourceType", "id", "name"], "nothing but the name typed for the summary")
        #expect(patient["name"]?.arrayValue?.first?["text"]?.stringValue == "Alice Example")
    }
}

/// JSON text indented by two spaces, members in their order (for golden files).
func pretty(_ v: JSONValue, _ indent: String = "") -> String {
    let inner = indent + "  "
    if let o = v.objectValue {
        if o.isEmpty { return "{}" }
        return "{\n" + o.map { k, x in
            var w = JSONWriter(capacity: 32)
            w.string(k)
            return inner + w.text + ": " + pretty(x, inner)
        }.joined(separator: ",\n") + "\n" + indent + "}"
    }
    if let a = v.arrayValue {
        if a.isEmpty { return "[]" }
        return "[\n" + a.map { inner + pretty($0, inner) }.joined(separator: ",\n") + "\n" + indent + "]"
    }
    var w = JSONWriter(capacity: 32)
    w.value(v)
    return w.text
}
