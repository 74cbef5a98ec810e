import HealthExport
import HealthSpoolCore
import Testing

/// Health Auto Export's `medications`, `cycleTracking` and `heartRateNotifications` sections:
/// each entry a sample of its own type, an entry that cannot be read noted by its place.
@Suite struct AutoExportRecordsTests {
    static func json(_ status: String = "Taken") -> [UInt8] {
        Array("""
        {"data": {
          "medications": [
            {"name": "Metformin", "dosage": "500", "units": "mg", "form": "Tablet", "scheduledDate": "2025-06-08 08:00:00 +0200",
             "date": "2025-06-08 08:04:10 +0200", "status": "\(status)", "source": "Camille’s iPhone"},
            {"name": "Lisinopril", "dosage": "10 mg", "scheduledDate": "2025-06-08 08:00:00 +0200", "status": "Skipped", "source": "Camille’s iPhone"},
            {"name": "Ibuprofen", "dosage": "200 mg", "start": "2025-06-08 13:30:00 +0200"},
            {"name": "Vitamin D", "scheduledDate": "2025-06-08 09:00:00 +0200", "status": "Snoozed"},
            {"dosage": "1"}
          ],
          "cycleTracking": [
            {"name": "menstrual_flow", "date": "2025-06-03 00:00:00 +0200", "value": "Medium"},
            {"name": "spotting", "date": "2025-06-03 00:00:00 +0200"},
            {"name": "ovulation_test_result", "date": "2025-06-17 07:00:00 +0200", "value": "Positive"},
            {"date": "2025-06-18 07:00:00 +0200"}
          ],
          "heartRateNotifications": [
            {"type": "High Heart Rate", "start": "2025-06-09 14:10:00 +0200", "end": "2025-06-09 14:20:00 +0200", "threshold": 120,
             "heartRate": [{"date": "2025-06-09 14:10:00 +0200", "qty": 124}, {"date": "2025-06-09 14:15:00 +0200", "qty": 131}]},
            {"type": "Low Heart Rate", "start": "2025-06-10 03:00:00 +0200", "threshold": 40},
            {"type": "Irregular Rhythm", "start": "2025-06-11 22:00:00 +0200", "end": "2025-06-11 22:00:00 +0200"},
            {"type": "Walking Steadiness", "start": "2025-06-12 10:00:00 +0200"}
          ]}}
        """.utf8)
    }

    @Test func medicationDosesCarryNameDoseScheduleAndStatus() throws {
        let outcome = ParseOutcome.parse(Self.json(), name: "HealthAutoExport.json")
        #expect(outcome.error == nil)
        let doses = outcome.samples.filter { $0.type == "medicationDose" }
        #expect(doses.map { $0.metadata["medication"] } == ["Metformin", "Lisinopril", "Ibuprofen"])
        #expect(doses.map(\.value) == [1, 0, 1])
        #expect(doses[0].metadata["dose"] == "500 mg" && doses[0].metadata["status"] == "taken")
        #expect(doses[0].metadata["scheduledDate"]?.hasPrefix("2025-06-08T08:00:00") == true)
        #expect(doses[0].start.iso8601Local.hasPrefix("2025-06-08T08:04:10"))
        #expect(doses[1].metadata["status"] == "skipped" && doses[1].source.name == "Camille’s iPhone")
        #expect(doses.allSatisfy { $0.revisable })
        let problems = (outcome.report?.problems ?? []).map(\.message)
        #expect(problems.contains { $0.hasPrefix("medications 4:") && $0.contains("Snoozed") })
        #expect(problems.contains { $0.hasPrefix("medications 5:") && $0.contains("name") })
    }

    @Test func aDoseTakenAfterBeingSkippedKeepsItsId() throws {
        let skipped = ParseOutcome.parse(Self.json("Skipped"), name: "a.json").samples.first { $0.type == "medicationDose" }
        let taken = ParseOutcome.parse(Self.json("Taken"), name: "a.json").samples.first { $0.type == "medicationDose" }
        let a = try #require(skipped), b = try #require(taken)
        #expect(a.id == b.id)
        #expect(skipped?.value == 0 && taken?.value == 1)
    }

    @Test func cycleEntriesOfOneDayStayApartWithTheirKind() throws {
        let outcome = ParseOutcome.parse(Self.json(), name: "HealthAutoExport.json")
        let entries = outcome.samples.filter { $0.type == "cycleTracking" }
        #expect(entries.map { $0.metadata["kind"] } == ["menstrual_flow", "spotting", "ovulation_test_result"])
        #expect(entries.map(\.value) == [3, 1, 1])
        #expect(entries[2].metadata["valueText"] == "Positive")
        #expect(entries[0].id != entries[1].id)
        #expect((outcome.report?.problems ?? []).contains { $0.message.hasPrefix("cycleTracking 4:") })
    }

    @Test func heartRateNotificationsAreHighLowOrIrregular() throws {
        let outcome = ParseOutcome.parse(Self.json(), name: "HealthAutoExport.json")
        let n = outcome.samples.filter { $0.type == "heartRateNotification" }
        #expect(n.map { $0.metadata["kind"] } == ["high", "low", "irregular"])
        #expect(n.map(\.value) == [131, 40, 0])
        #expect(n[0].metadata["threshold"] == "120" && n[0].unit == "count/min")
        #expect(n[0].end.iso8601Local.hasPrefix("2025-06-09T14:20:00"))
        #expect((outcome.report?.problems ?? []).contains { $0.message.hasPrefix("heartRateNotifications 4:") && $0.message.contains("Walking Steadiness") })
        #expect(outcome.report?.ignored.isEmpty == true)
    }
}
