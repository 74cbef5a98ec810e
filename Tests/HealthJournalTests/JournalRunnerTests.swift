@testable import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Synchronization
import Testing
import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Every journal command runs through `JournalRunner`: one store, the command's time, what it
/// queues announced (a symptom entry and a manual measurement alike), refusals in one line.
@Suite struct JournalRunnerTests {
    /// A context on a fresh temporary home; removed by the caller.
    static func context(_ environment: [String: String] = [:]) throws -> (Configuration, String) {
        var template = Array("/tmp/healthspool-runner-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        var env = ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run", "TZ": "UTC"]
        env.merge(environment) { $1 }
        return (try Configuration(environment: env), dir)
    }

    static let now = Timestamp(millis: 1_767_261_600_000, utcOffsetSeconds: 0)   // 2026-01-01T10:00Z

    @Test func aMeasurementAndASymptomAreAnnouncedTheSameWay() throws {
        let (context, dir) = try Self.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let announced = Mutex<[[String]]>([])
        try JournalRunner.run(configuration: context, now: Self.now, announce: { t in announced.withLock { $0.append(t) } }) { r in
            _ = try r.records().measure(.bloodPressure(systolic: 128, diastolic: 82), at: r.now, now: r.now)
            _ = try r.entries.logSymptom(SymptomLog(symptom: "headache", severity: .mild))
            // A dose is not a record for the gateway: nothing to announce.
            _ = try r.records().addMedication(Medication(name: "ibuprofen"), now: r.now)
            _ = try r.records().takeDose("ibuprofen", at: r.now)
        }
        #expect(announced.withLock { $0 } == [["bloodPressureDiastolic", "bloodPressureSystolic"], [JournalType.symptomEntry]])
    }

    @Test func theCommandsTimeIsTheJournalsNow() throws {
        let (context, dir) = try Self.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let (entry, today) = try JournalRunner.run(configuration: context, now: Self.now, announce: { _ in }) { r in
            (try r.entries.logSymptom(SymptomLog(symptom: "cough", severity: .mild)).entry, r.entries.today)
        }
        #expect(entry.at.millis == Self.now.millis)
        #expect(today == CivilDate(parsing: "2026-01-01"))
    }

    @Test func refusalsOfEveryKindAreOneLine() throws {
        let (context, dir) = try Self.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        func refusal(_ body: (JournalRunner) throws -> Void) -> String? {
            do { try JournalRunner.run(configuration: context, now: Self.now, announce: { _ in }, body) } catch let r as JournalRunner.Refusal {
                return r.description
            } catch { return "not a refusal: \(error)" }
            return nil
        }
        // JournalError
        #expect(refusal { _ = try $0.records().removeGoal(42) } == JournalError.notFound(kind: "goal", key: "42").description)
        #expect(refusal { _ = try $0.entries.deleteSymptom("zz") }?.contains("is not an entry id") == true)
        // ZoneRulesError: only the commands that need the zone are refused.
        let (badZone, dir2) = try Self.context(["TZ": "Nowhere/Atlantis"])
        defer { _ = try? FileSystem.removeTree(dir2) }
        var zoneRefusal: String?
        do {
            try JournalRunner.run(configuration: badZone, now: Self.now, announce: { _ in }) { r in
                _ = try r.entries.categories()
                _ = try r.records()
            }
        } catch let r as JournalRunner.Refusal { zoneRefusal = r.description }
        #expect(zoneRefusal?.contains("TZ=Nowhere/Atlantis") == true)
    }
}

/// A store that stays busy past the command's wait is a plain refusal: not saved, what to do,
/// no SQLite words (issue 26).
@Suite struct JournalRunnerBusyTests {
    @Test func aStoreThatStaysBusyIsRefusedPlainly() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let holder = try SampleStore.connect(to: context)
        try holder.begin()
        defer { holder.rollback() }
        var refusal: String?
        do {
            try JournalRunner.run(configuration: context, now: JournalRunnerTests.now, announce: { _ in }) { _ in
                // The runner's own store waits 30 s; a second connection with a short wait fails
                // the same way, sooner.
                let quick = try SampleStore.connect(to: context, busyTimeout: .milliseconds(100))
                _ = try HealthJournal(store: quick, zone: .utc, settings: context.settings).logSymptom(SymptomLog(symptom: "headache", severity: .mild))
            }
        } catch let r as JournalRunner.Refusal { refusal = r.description }
        #expect(refusal == StoreBusy.notSaved)
        #expect(refusal?.contains("SQLite") == false && refusal?.contains("locked") == false)
        #expect(refusal.map { StoreBusy.message(for: JournalRunner.Refusal(description: $0)) } == StoreBusy.notSaved)
    }

    @Test func otherErrorsAreNotCalledBusy() {
        #expect(StoreBusy.message(for: JournalError.notFound(kind: "goal", key: "42")) == nil)
    }
}
