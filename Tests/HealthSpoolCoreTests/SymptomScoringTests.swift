import Testing
@testable import HealthSpoolCore

/// The daily score rule and local days, with zones passed in (no system clock, no tzdata).
@Suite struct SymptomScoringTests {
    /// Europe/Berlin in 2026: +01:00, +02:00 from 2026-03-29 01:00 UTC, +01:00 from 2026-10-25 01:00 UTC.
    let berlin = ZoneRules(name: "Europe/Berlin", transitions: [1_774_746_000, 1_792_890_000], offsets: [7200, 3600], initialOffset: 3600)
    let id = SampleID(bytes: [UInt8](repeating: 1, count: 16))

    func entry(_ symptom: String, _ severity: Severity, at: Timestamp, category: String = "All Symptoms", deleted: Bool = false) -> SymptomEntry {
        SymptomEntry(id: id, symptom: symptom, category: category, at: at, severity: severity, deleted: deleted)
    }

    func local(_ day: CivilDate, _ h: Int, _ m: Int = 0, in zone: some OffsetRules) -> Timestamp {
        LocalDay.timestamp(day, hour: h, minute: m, in: zone)
    }

    @Test func aScoreIsTheSumOfSeverityWeightsPerCategoryAndPerSymptom() {
        let day = CivilDate(year: 2026, month: 11, day: 20)
        let entries = [
            entry("headache", .moderate, at: local(day, 8, in: berlin), category: "migraine"),
            entry("headache", .debilitating, at: local(day, 19, in: berlin), category: "migraine"),
            entry("nausea", .mild, at: local(day, 12, in: berlin), category: "migraine"),
            entry("cough", .severe, at: local(day, 9, in: berlin)),
            entry("cough", .severe, at: local(day, 10, in: berlin), deleted: true),
        ]
        let scores = SymptomScoring.scores(for: day, entries: entries, categories: ["cardio"])
        func score(_ scope: ScoreScope, _ name: String) -> Int? { scores.first { $0.scope == scope && $0.name == name }?.score }
        #expect(score(.category, "migraine") == 2 + 4 + 1)
        #expect(score(.category, "All Symptoms") == 3)
        #expect(score(.category, "cardio") == 0)   // 0: no entries
        #expect(score(.symptom, "headache") == 6)
        #expect(score(.symptom, "nausea") == 1)
        #expect(score(.symptom, "cough") == 3)     // the deleted entry does not count
    }

    @Test func aDSTDayOf23HoursAnd25HoursCountsItsOwnEntriesOnly() {
        let spring = CivilDate(year: 2026, month: 3, day: 29), autumn = CivilDate(year: 2026, month: 10, day: 25)
        let s = LocalDay.bounds(of: spring, in: berlin), a = LocalDay.bounds(of: autumn, in: berlin)
        #expect(s.upperBound - s.lowerBound == 23 * 3_600_000)
        #expect(a.upperBound - a.lowerBound == 25 * 3_600_000)
        // The last minutes of the 25-hour day (23:30 +01:00) count for it; 00:10 next day does not.
        let late = local(autumn, 23, 30, in: berlin), early = local(CivilDate(year: 2026, month: 10, day: 26), 0, 10, in: berlin)
        #expect(late.millis == a.upperBound - 30 * 60_000)
        let scores = SymptomScoring.scores(for: autumn, entries: [entry("fever", .mild, at: late), entry("fever", .severe, at: early),
                                                                  entry("fever", .moderate, at: local(autumn, 2, 30, in: berlin))])
        #expect(scores.first { $0.scope == .symptom }?.score == 3)
        // 02:30 does not exist on the spring day: read with the offset before the change (03:30 +02:00).
        let skipped = local(spring, 2, 30, in: berlin)
        #expect(skipped.iso8601Local == "2026-03-29T03:30:00.000+02:00")
        // 02:30 occurs twice on the autumn day: the first one (+02:00).
        #expect(local(autumn, 2, 30, in: berlin).iso8601Local == "2026-10-25T02:30:00.000+02:00")
    }

    @Test func onADayWithAZoneChangeEachEntryCountsOnTheDateItWasLivedOn() {
        // Flying Berlin → New York on 2026-11-20: a morning entry in Berlin, an evening one in New York.
        let newYork = ZoneRules.fixed(name: "EST", offset: -5 * 3600)
        let day = CivilDate(year: 2026, month: 11, day: 20)
        let morning = local(day, 8, in: berlin), evening = local(day, 23, 30, in: newYork)
        // 23:30 in New York is already the 21st in Berlin: it still counts for the 20th.
        #expect(LocalDay.date(of: evening.millis, in: berlin) == CivilDate(year: 2026, month: 11, day: 21))
        let scores = SymptomScoring.scores(for: day, entries: [entry("fatigue", .moderate, at: morning), entry("fatigue", .severe, at: evening)])
        #expect(scores.first { $0.scope == .symptom }?.score == 5)
        #expect(SymptomScoring.scores(for: CivilDate(year: 2026, month: 11, day: 21), entries: [entry("fatigue", .severe, at: evening)])
            .allSatisfy { $0.score == 0 })
    }

    @Test func aDayIsCompleteFromTheNextLocalMidnightAndTheSchedulerWakesThen() {
        let day = CivilDate(year: 2026, month: 10, day: 25)
        let end = LocalDay.bounds(of: day, in: berlin).upperBound
        #expect(!SymptomScoring.isComplete(day, at: end - 1, in: berlin))
        #expect(SymptomScoring.isComplete(day, at: end, in: berlin))
        #expect(LocalDay.nextMidnight(after: end - 1, in: berlin) == end)
        #expect(LocalDay.lastCompleteDay(at: end, in: berlin) == day)
    }

    @Test func scoreIDsAreStableAndDifferByDayScopeAndName() {
        let d = CivilDate(year: 2026, month: 11, day: 20)
        #expect(SymptomScore.id(day: d, scope: .category, name: "Migraine") == SymptomScore.id(day: d, scope: .category, name: "migraine"))
        #expect(SymptomScore.id(day: d, scope: .category, name: "x") != SymptomScore.id(day: d, scope: .symptom, name: "x"))
        #expect(SymptomScore.id(day: d, scope: .category, name: "x") != SymptomScore.id(day: CivilDate(year: 2026, month: 11, day: 21), scope: .category, name: "x"))
    }

    @Test(arguments: [("mild", Severity.mild), ("MODERATE", .moderate), ("3", .severe), ("debilitating", .debilitating)])
    func severitiesParseByNameOrWeight(text: String, expected: Severity) {
        #expect(Severity(parsing: text) == expected)
    }

    @Test func healthKitSeveritiesMapToTheJournalsAndNotPresentIsNoEntry() {
        #expect(Severity(healthKit: 1) == nil)
        #expect(Severity(healthKit: 0) == .mild)
        #expect(Severity(healthKit: 2) == .mild)
        #expect(Severity(healthKit: 3) == .moderate)
        #expect(Severity(healthKit: 4) == .severe)
    }

    @Test func theTimeOfDayFollowsTheLocalHour() {
        #expect(PartOfDay(hour: 5) == .morning && PartOfDay(hour: 12) == .afternoon && PartOfDay(hour: 17) == .evening)
        #expect(PartOfDay(hour: 21) == .night && PartOfDay(hour: 2) == .night)
    }

    @Test func journalTypesAreInTheJournalCategoryByRegistryAndByFamily() {
        for t in JournalType.all {
            #expect(DataType.category(of: t) == .journal)
            #expect(DataType.familyRules.first { $0.matches(DataType.familyStem(t)) }?.category == .journal)
        }
        var settings = Settings()
        settings.disabledTypes = ["journal"]
        #expect(!settings.isEnabled(JournalType.symptomEntry) && settings.isEnabled("heartRate"))
    }
}
