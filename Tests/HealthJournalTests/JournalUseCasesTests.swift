@testable import HealthJournal
import Synchronization
import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The journal's use cases on a real store in a temporary directory, with a manual clock and a
/// fixed zone.
@Suite struct JournalUseCasesTests {
    let store: SampleStore
    let zone = ZoneRules.fixed(name: "UTC+1", offset: 3600)
    let clock = ManualClock()
    let day = CivilDate(year: 2026, month: 11, day: 20)

    init() throws {
        var template = Array("/tmp/healthspool-journal-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
        setClock(LocalDay.timestamp(day, hour: 21, minute: 0, in: zone).millis)
    }

    func setClock(_ millis: Int64) { clock.millis.withLock { $0 = millis } }

    func journal(_ settings: Settings = Settings()) -> HealthJournal {
        let clock = self.clock
        return HealthJournal(store: store, zone: zone, settings: settings, clock: { Timestamp(millis: clock.millis.withLock { $0 }) })
    }

    func at(_ h: Int) -> Timestamp { LocalDay.timestamp(day, hour: h, minute: 0, in: zone) }

    @Test func anEditIsQueuedUnderTheSameIDWithTheNextVersionAndADeleteAsATombstone() throws {
        let j = journal()
        let (e, _) = try j.logSymptom(SymptomLog(symptom: "headache", severity: .moderate, when: .evening, at: at(19),
                                                  aggravatedBy: ["caffeine"]))
        #expect(e.category == "All Symptoms" && e.version == 1)
        let js = JournalStore(store)
        #expect(try js.queuedRecords(type: JournalType.symptomEntry).map(\.version) == [1])
        // Delivered, then edited: queued again, once, with version 2.
        let batch = try store.queuedBatch(type: JournalType.symptomEntry, limit: 10)
        try store.recordDelivery(type: JournalType.symptomEntry, rowIDs: batch.rowIDs, at: at(20))
        #expect(try js.queuedRecords(type: JournalType.symptomEntry).isEmpty)
        var changes = SymptomChanges()
        changes.severity = .severe
        let edited = try j.editSymptom(String(e.id.description.prefix(8)), changes)
        #expect(edited.id == e.id && edited.version == 2 && edited.severity == .severe)
        #expect(try js.queuedRecords(type: JournalType.symptomEntry).map { [$0.id == e.id ? 1 : 0, $0.version] } == [[1, 2]])
        let deleted = try j.deleteSymptom(e.id.description)
        #expect(deleted.deleted && deleted.version == 3)
        let queued = try js.queuedRecords(type: JournalType.symptomEntry)
        #expect(queued.count == 1 && queued[0].id == e.id && queued[0].version == 3 && queued[0].deleted)
        #expect(try j.symptoms(on: day).isEmpty)
        #expect(try store.queuedBatch(type: JournalType.symptomEntry, limit: 10).tombstones == [true])
    }

    @Test func aDaysScoresAreStoredOnceTheDayIsOverAndAnEditAfterMidnightRecomputesThem() throws {
        let j = journal()
        let (e, _) = try j.logSymptom(SymptomLog(symptom: "headache", severity: .moderate, at: at(8), category: "migraine"))
        try j.logSymptom(SymptomLog(symptom: "nausea", severity: .mild, at: at(9), category: "migraine"))
        // Today: computed, not stored, not sent.
        #expect(try j.scores(for: day).first { $0.scope == .category && $0.name == "migraine" }?.score == 3)
        let js = JournalStore(store)
        #expect(try js.storedScores(day) == nil)
        #expect(try js.queuedRecords(type: JournalType.symptomScore).isEmpty)
        // After midnight: stored and queued.
        setClock(LocalDay.bounds(of: day, in: zone).upperBound + 60_000)
        #expect(try j.scores(for: day).first { $0.scope == .category && $0.name == "migraine" }?.score == 3)
        #expect(try js.storedScores(day)?.count == 3)   // migraine; headache, nausea
        #expect(try js.queuedRecords(type: JournalType.symptomScore).allSatisfy { $0.version == 1 })
        // An edit after midnight scores the day again at once: the changed scores get version 2.
        var changes = SymptomChanges()
        changes.severity = .debilitating
        try j.editSymptom(e.id.description, changes)
        let stored = try #require(try js.storedScores(day))
        #expect(stored.first { $0.scope == .category && $0.name == "migraine" }?.score == 5)
        #expect(stored.first { $0.scope == .symptom && $0.name == "headache" }?.score == 4)
        let versions = try js.queuedRecords(type: JournalType.symptomScore).map(\.version).sorted()
        #expect(versions == [1, 2, 2])   // nausea unchanged; migraine and headache re-sent
        // Moving the entry to another day scores both days.
        changes = SymptomChanges()
        changes.at = LocalDay.timestamp(CivilDate(year: 2026, month: 11, day: 19), hour: 8, minute: 0, in: zone)
        try j.editSymptom(e.id.description, changes)
        #expect(try js.storedScores(day)?.first { $0.scope == .symptom && $0.name == "headache" }?.score == 0)
    }

    /// The calendar's shading: each day's sum of severity weights over a span, read at once,
    /// equals the day-by-day sums; deleted entries and days outside the span are left out.
    @Test func aSpansSymptomScoresEqualEachDaysSumOfWeights() throws {
        let j = journal()
        let first = CivilDate(year: 2026, month: 11, day: 1), last = CivilDate(year: 2026, month: 11, day: 30)
        func on(_ d: Int, _ h: Int) -> Timestamp { LocalDay.timestamp(CivilDate(year: 2026, month: 11, day: d), hour: h, minute: 0, in: zone) }
        try j.logSymptom(SymptomLog(symptom: "headache", severity: .moderate, at: on(1, 0)))
        try j.logSymptom(SymptomLog(symptom: "nausea", severity: .debilitating, at: on(1, 23)))
        try j.logSymptom(SymptomLog(symptom: "headache", severity: .mild, at: on(17, 12)))
        let (gone, _) = try j.logSymptom(SymptomLog(symptom: "headache", severity: .severe, at: on(17, 13)))
        try j.deleteSymptom(gone.id.description)
        try j.logSymptom(SymptomLog(symptom: "headache", severity: .severe, at: on(30, 23)))
        try j.logSymptom(SymptomLog(symptom: "headache", severity: .severe,
                                    at: LocalDay.timestamp(CivilDate(year: 2026, month: 10, day: 31), hour: 23, minute: 0, in: zone)))
        let scores = try j.symptomScores(from: first, to: last)
        #expect(scores == [first: 6, CivilDate(year: 2026, month: 11, day: 17): 1, last: 3])
        for key in first.daysSinceEpoch...last.daysSinceEpoch {
            let d = CivilDate(daysSinceEpoch: key)
            #expect(scores[d] ?? 0 == (try j.symptoms(on: d)).reduce(0) { $0 + $1.severity.weight }, "\(d)")
        }
    }

    @Test func importedSymptomsBecomeEntriesOnceAndADeletedOneStaysDeleted() throws {
        let headache = Sample(type: "headache", value: 3, unit: "count", start: at(7), end: at(8), source: SampleSource(name: "Phone"))
        let notPresent = Sample(type: "nausea", value: 1, unit: "count", start: at(7), source: SampleSource(name: "Phone"))
        _ = try store.insert([headache, notPresent], now: at(9))
        let j = journal()
        #expect(try j.absorbImports() == 1)
        let entries = try j.symptoms(on: day)
        #expect(entries.count == 1 && entries[0].severity == .moderate && entries[0].origin == .imported && entries[0].symptom == "headache")
        #expect(entries[0].id == SymptomEntry.importedID(sampleID: headache.id))
        // The same export again: a duplicate sample, no second entry.
        _ = try store.insert([headache], now: at(10))
        #expect(try j.absorbImports() == 0)
        try j.deleteSymptom(entries[0].id.description)
        // Even when the sample row comes back (pruned, then imported again), the deleted entry stays deleted.
        try JournalStore(store).markImported(through: 0)
        #expect(try j.absorbImports() == 0)
        #expect(try j.symptoms(on: day).isEmpty)
    }

    @Test func aDisabledJournalTypeIsKeptLocallyButNotQueued() throws {
        var settings = Settings()
        settings.disabledTypes = ["journal"]
        let j = journal(settings)
        try j.logSymptom(SymptomLog(symptom: "cough", severity: .mild, at: at(8)))
        try j.logLifestyle(LifestyleLog(factor: "caffeine", measure: .amount(2, unit: "cups"), when: .morning, at: at(8)))
        #expect(try j.symptoms(on: day).count == 1 && j.lifestyle(on: day).count == 1)
        #expect(try store.queuedCounts().isEmpty)
    }

    @Test func logsRefuseEmptyNamesAndAnUnknownIDSaysWhatToDo() throws {
        let j = journal()
        #expect(throws: JournalError.emptyName(what: "symptom")) { try j.logSymptom(SymptomLog(symptom: "  ", severity: .mild)) }
        let error = #expect(throws: JournalError.self) { try j.deleteSymptom("abcd1234") }
        #expect(error == .noEntry(kind: "symptom", prefix: "abcd1234", list: "symptom"))
        #expect(error?.description == "no symptom entry has an id starting with 'abcd1234'; see 'healthspool symptom list'")
    }
}

/// A manual clock, readable from a `@Sendable` closure.
final class ManualClock: Sendable {
    let millis = Mutex<Int64>(0)
}
