import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Rollups deferred during a bulk import (`dirty_days`), and the rank of each source row kept
/// per connection: on real SQLite, against a recomputation from the samples.
@Suite struct DeferredRollupTests {
    let path: String
    static let h: Int64 = 3_600_000, m: Int64 = 60_000
    static let policy = RollupPolicy(zone: DayRollupTests.berlin, priority: .standard)

    init() throws {
        var template = Array("/tmp/healthspool-deferred-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        path = dir + "/test.db"
    }

    func open() throws -> SampleStore {
        let store = try SampleStore(path: path)
        store.rollupPolicy = Self.policy
        return store
    }

    func steps(_ start: Int64, _ minutes: Int64, _ value: Double, source: String = "Health Sync", device: String) -> Sample {
        let from = DayRollupTests.base + start
        return Sample(type: "stepCount", value: value, unit: "count",
                      start: Timestamp(millis: from, utcOffsetSeconds: 3600),
                      end: Timestamp(millis: from + minutes * Self.m, utcOffsetSeconds: 3600),
                      source: SampleSource(name: source, device: device))
    }

    func expectFresh(_ store: SampleStore, _ comment: Comment) throws {
        let read = try store.rollups(fromDay: .min, toDay: .max)
        let recomputed = try store.recomputedRollups()
        #expect(read.count == recomputed.count, comment)
        for (a, b) in zip(read, recomputed) where !a.agrees(with: b) {
            Issue.record("\(comment): read \(a) but recomputed \(b)")
            break
        }
    }

    /// A crash after a deferred import committed its samples and marks, before their rollups
    /// were computed: a new connection reads no stale figure, and settling stores fresh ones.
    @Test func aCrashBeforeTheRollupsAreComputedLeavesNoStaleFigure() throws {
        let data = try DayRollupTests().dataset(days: 3)
        do {
            let writer = try open()
            // A first import, computed at its commit: these rollups go stale below.
            _ = try writer.insert(Array(data.prefix(data.count / 3)), now: Timestamp(millis: 1))
            try expectFresh(writer, "after a first import")
            writer.rollupsDeferred = true
            try writer.begin()
            _ = try writer.insert(Array(data.suffix(data.count * 2 / 3 + 10)), now: Timestamp(millis: 2))
            try writer.commit()
            #expect(try writer.dirtyDays(fromDay: .min, toDay: .max).count > 0)
            // The crash: the connection goes without `settleRollups`.
        }
        let reader = try open()
        let stored = try reader.storedRollups(fromDay: .min, toDay: .max, figures: nil)
        let recomputed = try reader.recomputedRollups()
        #expect(stored.count != recomputed.count || !zip(stored, recomputed).allSatisfy { $0.agrees(with: $1) },
                "the stored rollups are stale until settled")
        try expectFresh(reader, "read after the crash")
        let steps = try reader.rollups(fromDay: .min, toDay: .max, figures: ["stepCount"])
        #expect(steps.map(\.figure).allSatisfy { $0 == "stepCount" } && !steps.isEmpty)

        #expect(try reader.settleRollups(chunk: 3) > 0)
        #expect(try reader.dirtyDays(fromDay: .min, toDay: .max).isEmpty)
        let settled = try reader.storedRollups(fromDay: .min, toDay: .max, figures: nil)
        #expect(settled.count == recomputed.count)
        #expect(zip(settled, recomputed).allSatisfy { $0.agrees(with: $1) })
    }

    /// Every source row is ranked once and kept: the cache holds each row's rank, and a new
    /// priority empties it, so the totals follow the new order.
    @Test func eachSourceRowIsRankedOnceAndANewPriorityRanksAgain() throws {
        let store = try open()
        let h = Self.h
        func watch(_ n: Int) -> String { "<<HKDevice: 0x\(n)>, name:Apple Watch, model:Watch, software:10.\(n % 3)>" }
        func phone(_ n: Int) -> String { "<<HKDevice: 0x\(n)>, name:iPhone, model:iPhone, software:17.\(n % 3)>" }
        var samples: [Sample] = []
        // 20 stretches of 10 minutes: the watch and the phone in the first ten, the phone alone
        // in the next five, the watch alone in the last five; a device string per record, which
        // alone tells the two apps' ranks.
        for i in 0..<20 {
            let t: Int64 = 10 * h + Int64(i) * 10 * Self.m
            let watchSteps: Double = i < 10 ? 100 : 20
            if i < 10 || i >= 15 { samples.append(steps(t, 10, watchSteps, source: "Sync A", device: watch(i))) }
            if i < 15 { samples.append(steps(t, 10, 50, source: "Sync B", device: phone(i))) }
        }
        _ = try store.insert(samples, now: Timestamp(millis: 1))
        let day = Self.policy.day(ofMillis: DayRollupTests.base + 10 * h)
        let watchFirst = try #require(try store.rollups(fromDay: day, toDay: day, figures: ["stepCount"]).first)
        #expect(watchFirst.value == 1_350)   // 10 × 100 + 5 × 50 + 5 × 20
        #expect(store.rollups.ranks.count == samples.count)
        for (id, rank) in store.rollups.ranks {
            let source = try store.source(id: id)
            #expect(rank == SourcePriority.standard.rank(name: source.name, device: source.device))
        }

        store.rollupPolicy = RollupPolicy(zone: DayRollupTests.berlin, priority: SourcePriority(["phone", "watch"]))
        #expect(store.rollups.ranks.isEmpty)
        #expect(try store.ensureRollups())
        let phoneFirst = try #require(try store.rollups(fromDay: day, toDay: day, figures: ["stepCount"]).first)
        // 15 × 50 + 5 × 20 merged, raised to the watch's own 10 × 100 + 5 × 20.
        #expect(phoneFirst.value == 1_100)
        #expect(store.rollups.ranks.values.allSatisfy { $0 <= 1 } && store.rollups.ranks.count == samples.count)
    }

    /// The settle split between two connections (a first import's many days) stores exactly the
    /// rollups the one-connection settle stores, sleep included, and clears every mark.
    @Test func settlingOnTwoConnectionsStoresWhatOneConnectionStores() throws {
        let data = try DayRollupTests().dataset(days: 9)
        var results: [[DayRollup]] = []
        for split in [false, true] {
            let dir = path + (split ? ".split" : ".one")
            mkdir(dir, 0o700)
            let store = try SampleStore(path: dir + "/s.db")
            store.rollupPolicy = Self.policy
            store.rollupsDeferred = true
            try store.begin()
            _ = try store.insert(data, now: Timestamp(millis: 1))
            try store.commit()
            store.rollupsDeferred = false
            let marks = try store.dirtyDayCount()
            #expect(marks > 9)
            let settled = split ? try store.settleRollups(alongside: try SampleStore(path: dir + "/s.db"), chunk: 7)
                                : try store.settleRollups(chunk: 7)
            #expect(settled == marks)
            #expect(try store.dirtyDayCount() == 0)
            let stored = try store.storedRollups(fromDay: .min, toDay: .max, figures: nil)
            #expect(stored.contains { $0.figure == DayRollup.sleep }, "the dataset has nights")
            try expectFresh(store, split ? "two connections" : "one connection")
            results.append(stored)
        }
        #expect(results[0].count == results[1].count)
        #expect(zip(results[0], results[1]).allSatisfy { $0.agrees(with: $1) && $0.day == $1.day && $0.figure == $1.figure })
    }
}
