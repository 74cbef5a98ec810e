@testable import HealthJournal
import Synchronization
import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 40, item 1: "this morning" chosen at 18:07 is stored in the morning (08:30), read back
/// from the store as the part the person chose, and counted as morning; from the command line's
/// use case and the browser's alike (both log through `HealthJournal.logSymptom`).
@Suite struct JournalPartMeantTests {
    let store: SampleStore
    let zone = ZoneRules.fixed(name: "UTC+1", offset: 3600)
    let clock = ManualClock()
    let day = CivilDate(year: 2026, month: 11, day: 28)

    init() throws {
        var template = Array("/tmp/healthspool-journal-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
        clock.millis.withLock { $0 = LocalDay.timestamp(day, hour: 18, minute: 7, in: zone).millis }
    }

    func journal() -> HealthJournal {
        let clock = self.clock
        return HealthJournal(store: store, zone: zone, settings: Settings(), clock: { Timestamp(millis: clock.millis.withLock { $0 }) })
    }

    func clockText(_ t: Timestamp) -> String { String(t.iso8601Local.dropFirst(11).prefix(5)) }

    @Test func morningChosenAtSixInTheEveningIsStoredInTheMorning() throws {
        let j = journal()
        let (e, _) = try j.logSymptom(SymptomLog(symptom: "headache", severity: .moderate, when: .morning))
        #expect(clockText(e.at) == "08:30" && e.timeOfDay == .morning && e.partMeant)
        let stored = try #require(try j.symptoms(on: day).first)
        #expect(clockText(stored.at) == "08:30" && stored.partMeant && stored.shownTime == "Morning")
        #expect(stored.shownPhrase == "in the morning")
        #expect(PartOfDay(of: stored.at) == .morning)
        // Without a part, now; with --at, that time, as given.
        let (now, _) = try j.logSymptom(SymptomLog(symptom: "nausea", severity: .mild))
        #expect(clockText(now.at) == "18:07" && !now.partMeant && now.shownTime == "18:07")
        let (given, _) = try j.logSymptom(SymptomLog(symptom: "nausea", severity: .mild, when: .morning,
                                                     at: LocalDay.timestamp(day, hour: 9, minute: 15, in: zone)))
        #expect(clockText(given.at) == "09:15" && !given.partMeant)
    }

    @Test func changingOnlyThePartMovesTheTimeWithinTheDay() throws {
        let j = journal()
        let (e, _) = try j.logSymptom(SymptomLog(symptom: "headache", severity: .moderate))
        var changes = SymptomChanges()
        changes.when = .morning
        let edited = try j.editSymptom(e.id.description, changes)
        #expect(clockText(edited.at) == "08:30" && edited.timeOfDay == .morning && edited.partMeant)
        // A time typed in is exact again.
        var exact = SymptomChanges()
        exact.at = LocalDay.timestamp(day, hour: 10, minute: 5, in: zone)
        let again = try j.editSymptom(e.id.description, exact)
        #expect(clockText(again.at) == "10:05" && !again.partMeant && again.shownTime == "10:05")
    }

    @Test func aLifestyleFactorForTheMorningIsStoredInTheMorning() throws {
        let j = journal()
        let e = try j.logLifestyle(LifestyleLog(factor: "caffeine", when: .morning))
        #expect(clockText(e.at) == "08:30" && e.partMeant)
        let stored = try #require(try j.lifestyle(on: day).first)
        #expect(stored.partMeant && stored.shownTime == "Morning")
        var changes = LifestyleChanges()
        changes.when = .afternoon
        let moved = try j.editLifestyle(e.id.description, changes)
        #expect(clockText(moved.at) == "14:30" && moved.timeOfDay == .afternoon)
    }
}
