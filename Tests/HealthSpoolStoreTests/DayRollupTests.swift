import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Daily rollups against a recomputation from the samples, on real SQLite, after imports,
/// revisions, pruning and a change of zone.
@Suite struct DayRollupTests {
    let store: SampleStore
    static let berlin = ZoneRules(name: "Europe/Berlin", initialOffset: 3600, rule: PosixZoneRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3"))
    /// 2026-03-27T00:00:00+01:00: the weekend clocks go forward in Berlin.
    static let base: Int64 = 1_774_566_000_000
    static let h: Int64 = 3_600_000, m: Int64 = 60_000

    init() throws {
        var template = Array("/tmp/healthspool-rollup-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
        store.rollupPolicy = RollupPolicy(zone: Self.berlin, priority: .standard)
    }

    func sample(_ type: String, _ start: Int64, _ end: Int64, _ value: Double, _ source: String, stage: String? = nil, revisable: Bool = false) -> Sample {
        Sample(type: type, value: value, unit: type == "heartRate" ? "count/min" : type.hasPrefix("sleep") || type == "timeInBed" ? "min" : "count",
               start: Timestamp(millis: Self.base + start, utcOffsetSeconds: 3600), end: Timestamp(millis: Self.base + end, utcOffsetSeconds: 3600),
               source: SampleSource(name: source), metadata: stage.map { ["sleepStage": $0] } ?? [:], revisable: revisable)
    }

    /// Four days of a watch and a phone counting steps every 10 minutes, overlapping; two
    /// sleep sources each night across midnight; heart rate every 5 minutes.
    func dataset(days: Int64 = 4) -> [Sample] {
        let h = Self.h, m = Self.m
        var out: [Sample] = []
        var t: Int64 = 0
        while t < days * 24 * h {
            out.append(sample("stepCount", t, t + 10 * m, 100, "Anna's Apple Watch"))
            out.append(sample("stepCount", t + 5 * m, t + 15 * m, 80, "Anna's iPhone"))
            out.append(sample("heartRate", t, t, 60 + Double(t / m % 40), "Anna's Apple Watch"))
            out.append(sample("heartRate", t + 5 * m, t + 5 * m, 65, "Anna's Apple Watch"))
            t += 10 * m
        }
        for d in 0..<days {
            let night = d * 24 * h + 23 * h
            out.append(sample("sleepAnalysis", night, night + 3 * h, 180, "Anna's Apple Watch", stage: "HKCategoryValueSleepAnalysisAsleepCore"))
            out.append(sample("sleepAnalysis", night + 3 * h, night + 4 * h, 60, "Anna's Apple Watch", stage: "HKCategoryValueSleepAnalysisAsleepDeep"))
            out.append(sample("sleepAnalysis", night + 4 * h, night + 7 * h, 180, "Anna's Apple Watch", stage: "HKCategoryValueSleepAnalysisAsleepREM"))
            out.append(sample("sleepAnalysis", night + 30 * m, night + 7 * h + 30 * m, 420, "AutoSleep", stage: "asleep"))
            out.append(sample("timeInBed", night - 30 * m, night + 8 * h, 510, "Anna's iPhone"))
        }
        return out
    }

    func expectAgreement(_ comment: Comment) throws {
        let stored = try store.rollups(fromDay: .min, toDay: .max)
        let recomputed = try store.recomputedRollups()
        #expect(stored.count == recomputed.count, comment)
        for (a, b) in zip(stored, recomputed) where !a.agrees(with: b) {
            Issue.record("\(comment): stored \(a) but recomputed \(b)")
            break
        }
    }

    @Test func rollupsEqualARecomputationAfterImportsRevisionsAndPruning() throws {
        let all = dataset()
        // Imported in two overlapping batches, the first inside one transaction as the importer does.
        try store.begin()
        _ = try store.insert(Array(all.prefix(all.count / 2 + 50)), now: Timestamp(millis: 1))
        try store.commit()
        try expectAgreement("after the first import")
        _ = try store.insert(Array(all.suffix(all.count / 2 + 50)), now: Timestamp(millis: 2))
        try expectAgreement("after the second import")
        #expect(try store.rollups(fromDay: .min, toDay: .max).contains { $0.figure == "sleep" })

        // A revisable daily total from an app, then revised.
        let daily = sample("stepCount", 24 * Self.h + 2 * Self.h, 24 * Self.h + 3 * Self.h, 500, "Pedometer", revisable: true)
        _ = try store.insert([daily], now: Timestamp(millis: 3))
        try expectAgreement("after a revisable sample")
        var revised = daily
        revised.value = 900
        #expect(try store.insert([revised], now: Timestamp(millis: 4)).revised == 1)
        try expectAgreement("after its revision")

        // Deliver everything, then prune the first two days.
        for type in ["stepCount", "heartRate", "sleepAnalysis", "timeInBed"] {
            let q = try store.queued(type: type, limit: 100_000)
            try store.recordDelivery(q, at: Timestamp(millis: 5))
        }
        let pruned = try store.pruneSynced(olderThanMillis: Self.base + 2 * 24 * Self.h)
        #expect(pruned > 0)
        try expectAgreement("after pruning")

        // Another zone: the rollups are rebuilt for it.
        store.rollupPolicy = RollupPolicy(zone: .utc, priority: .standard)
        #expect(try store.ensureRollups())
        try expectAgreement("after a change of zone")
    }

    @Test func overlappingWatchAndPhoneCountOnceInTheDayTotal() throws {
        _ = try store.insert(dataset(days: 2), now: Timestamp(millis: 1))
        // Day 2026-03-28, 24 hours: the watch covers every minute (144 × 100); the phone adds nothing.
        let day = CivilDate(year: 2026, month: 3, day: 28).daysSinceEpoch
        let steps = try #require(try store.rollups(fromDay: day, toDay: day, figures: ["stepCount"]).first)
        #expect(steps.value == 14_400)
        #expect(steps.count == 288)
        // Its night: asleep 23:00 to 06:00 by the watch, 23:30 to 06:30 by AutoSleep: 7.5 h, not 14 h.
        let sleep = try #require(try store.rollups(fromDay: day, toDay: day, figures: ["sleep"]).first?.sleepFigure)
        #expect(sleep.asleepMinutes == 450)
        #expect(sleep.inBedMinutes == 510)
        #expect(sleep.stages[.core] == 180 && sleep.stages[.deep] == 60 && sleep.stages[.rem] == 180)
    }

    @Test func rebuildMatchesIncrementalRollups() throws {
        _ = try store.insert(dataset(days: 3), now: Timestamp(millis: 1))
        let incremental = try store.rollups(fromDay: .min, toDay: .max)
        try store.rebuildRollups()
        let rebuilt = try store.rollups(fromDay: .min, toDay: .max)
        #expect(incremental.count == rebuilt.count)
        #expect(zip(incremental, rebuilt).allSatisfy { $0.agrees(with: $1) })
    }

    /// Rollups stored under the v1 rules (steps merged in proportion to time) are rebuilt.
    @Test func rollupsOfAnEarlierRulesVersionAreRebuilt() throws {
        _ = try store.insert(dataset(days: 1), now: Timestamp(millis: 1))
        try store.setState("rollups.policy", "v1|" + Self.berlin.name + "|" + SourcePriority.standard.description)
        let reopened = try SampleStore(path: store.path)
        reopened.rollupPolicy = RollupPolicy(zone: Self.berlin, priority: .standard)
        #expect(try reopened.ensureRollups())
        #expect(try reopened.state("rollups.policy")?.hasPrefix("v4|") == true)
    }
}
