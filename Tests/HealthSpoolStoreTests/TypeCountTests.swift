import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The queued, synced and parked counts a metrics scrape and `status` read are kept as rows
/// change (`type_counts`, schema step 7): after any sequence of the store's operations they
/// equal a count over every sample.
@Suite struct TypeCountTests {
    let store: SampleStore
    let path: String
    let now = Timestamp(millis: 1_767_261_600_000)

    init() throws {
        var template = Array("/tmp/healthspool-counts-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        path = dir + "/test.db"
        store = try SampleStore(path: path)
    }

    /// A small deterministic generator (SplitMix64), so a failure repeats.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func sample(_ i: Int, type: String, value: Double, revisable: Bool) -> Sample {
        Sample(type: type, value: value, unit: "count", start: Timestamp(seconds: 1_767_261_600 + Int64(i) * 60),
               end: Timestamp(seconds: 1_767_261_600 + Int64(i) * 60 + 30), source: SampleSource(name: "Watch"), revisable: revisable)
    }

    func expectCountsMatchAScan(after step: String) throws {
        #expect(try store.countProblems() == [], "after \(step)")
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func countsEqualAFullCountAfterRandomOperations(seed: UInt64) throws {
        var random = Seeded(state: seed)
        let types = ["stepCount", "heartRate", "activeEnergyBurned"]
        for round in 0..<60 {
            let type = types.randomElement(using: &random)!
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:   // an import: new samples, duplicates and revised values
                let first = Int.random(in: 0..<400, using: &random)
                let batch = (first..<(first + Int.random(in: 1..<80, using: &random))).map {
                    sample($0, type: type, value: Double(Int.random(in: 0..<3, using: &random)), revisable: type == "activeEnergyBurned")
                }
                _ = try store.insert(batch, now: now)
            case 2:   // a batch delivered, some rejected (parked), some to send again
                let rows = try store.queued(type: type, limit: Int.random(in: 1..<60, using: &random)).map(\.rowID)
                guard !rows.isEmpty else { continue }
                let rejected = rows.filter { _ in Int.random(in: 0..<10, using: &random) == 0 }.map { ($0, "bad value") }
                let retry = rows.filter { row in !rejected.contains { $0.0 == row } && Int.random(in: 0..<10, using: &random) == 0 }
                try store.recordDelivery(type: type, rowIDs: rows, rejected: rejected, retry: retry, at: now)
            case 3:   // dead letters put back in line
                _ = try store.requeueDeadLetters(type: Bool.random(using: &random) ? type : nil)
            case 4:   // the oldest synced pruned
                _ = try store.pruneOldestSynced(keeping: Int.random(in: 0..<200, using: &random))
            case 5:
                _ = try store.pruneSynced(olderThanMillis: 1_767_261_600_000 + Int64.random(in: 0..<24_000, using: &random) * 1000)
            default:   // another connection (the sync worker) delivers at the same time as this one reads
                let other = try SampleStore(path: path)
                let rows = try other.queued(type: type, limit: 25).map(\.rowID)
                try other.recordDelivery(type: type, rowIDs: rows, at: now)
            }
            try expectCountsMatchAScan(after: "round \(round) of seed \(seed)")
        }
    }

    /// A row parked at step 10 between queued rows of its type splits the runs step 11 fills, so
    /// it lies in none: a mark moved over it leaves it parked, and counts it neither synced nor
    /// as a queued row gone. Parked rows inside a run (refused from a batch) are in the random
    /// operations above.
    @Test func aMarkMovedOverAParkedRowOutsideEveryRunCountsOnlyTheQueuedRows() throws {
        _ = try store.insert((0..<10).map { sample($0, type: "stepCount", value: 1, revisable: false) }, now: now)
        let rows = try store.queued(type: "stepCount", limit: 10).map(\.rowID)
        // Back to step 10 with the fifth row parked: the queue index, no runs.
        try store.conn.exec("""
            UPDATE samples SET state = 2, dead_reason = 'bad value', parked_ms = 0 WHERE rowid = \(rows[4]);
            DROP TABLE queue_runs; DROP INDEX samples_parked; CREATE INDEX samples_queue ON samples(type, state, rowid);
            PRAGMA user_version = 10;
            """)
        let reopened = try SampleStore(path: path)
        let runs = try reopened.conn.prepare("SELECT first, last FROM queue_runs ORDER BY first")
        var found: [[Int64]] = []
        while try runs.step() { found.append([runs.int(0), runs.int(1)]) }
        #expect(found == [[rows[0], rows[3]], [rows[5], rows[9]]])
        let queued = try reopened.queued(type: "stepCount", limit: 100).map(\.rowID)
        try reopened.recordDelivery(type: "stepCount", rowIDs: queued, at: now)
        #expect(try reopened.queuedCounts() == [:])
        #expect(try reopened.syncedCounts() == ["stepCount": 9])
        #expect(try reopened.deadLetterCounts() == ["stepCount": 1])
        #expect(try reopened.countedBySampleScan().synced == ["stepCount": 9])
    }

    /// A store made before step 7 gets its counts from a full count when it is migrated.
    @Test func aStoreMigratedToStep7StartsWithExactCounts() throws {
        _ = try store.insert((0..<50).map { sample($0, type: "stepCount", value: 1, revisable: false) }, now: now)
        try store.recordDelivery(type: "stepCount", rowIDs: try store.queued(type: "stepCount", limit: 20).map(\.rowID),
                                 rejected: [], at: now)
        // Back to step 6: the tables of steps 7, 8, 10 and 11 and the columns of steps 9 and 10 gone, the queue index
        // back, as an older binary left the store.
        try store.conn.exec("""
            DROP TABLE queue_runs; DROP INDEX samples_parked; CREATE INDEX samples_queue ON samples(type, state, rowid);
            DROP TRIGGER type_counts_new_type; DROP TRIGGER type_counts_row_deleted;
            DROP TRIGGER type_counts_row_moved; DROP TRIGGER type_counts_mark_moved;
            DROP TABLE type_counts; DROP TABLE dirty_days;
            ALTER TABLE symptom_entries DROP COLUMN part_meant; ALTER TABLE lifestyle_entries DROP COLUMN part_meant;
            ALTER TABLE samples DROP COLUMN full_export; DROP TABLE inferred_deletions; DROP TABLE source_freshness;
            PRAGMA user_version = 6;
            """)
        _ = try store.conn.exec("UPDATE types SET synced_to = synced_to")   // no trigger left to fire
        let reopened = try SampleStore(path: path)
        #expect(try reopened.queuedCounts() == ["stepCount": 30])
        #expect(try reopened.syncedCounts() == ["stepCount": 20])
    }
}
