import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The store's half of deletions inferred from full exports (issue 43): only samples stored from
/// a full export are candidates; marking goes through the tombstone (same id, higher version,
/// deleted, queued again); restoring undoes it; the freshness table follows the inserts.
@Suite struct InferredDeletionTests {
    let store: SampleStore
    let now = Timestamp(millis: 1_767_261_600_000)

    init() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
    }

    func sample(_ i: Int, source: String = "Watch") -> Sample {
        Sample(type: "heartRate", value: Double(60 + i), unit: "count/min", start: Timestamp(seconds: 1_700_000_000 + Int64(i) * 60),
               source: SampleSource(name: source))
    }

    @Test func onlySamplesFromAFullExportThatItNoLongerHoldsAreCandidates() throws {
        store.storingFullExport = true
        _ = try store.insert((0..<10).map { sample($0) }, now: now)
        store.storingFullExport = false
        _ = try store.insert([sample(10)], now: now)   // pushed, typed in or from Health Auto Export
        var seen = SeenSampleIDs()
        for i in 0..<10 where i != 3 && i != 7 { seen.insert(sample(i).id) }
        seen.seal()
        let (candidates, stored) = try store.deletionCandidates(types: ["heartRate"], since: Int64.max, seen: seen)
        #expect(stored == 11)
        #expect(candidates.map(\.id) == [sample(3).id, sample(7).id])
        // Samples starting after the earlier export's date are not in its range.
        let early = try store.deletionCandidates(types: ["heartRate"], since: sample(5).start.millis, seen: seen)
        #expect(early.candidates.map(\.id) == [sample(3).id] && early.stored == 5)
    }

    @Test func markingQueuesATombstoneAndRestoringPutsTheSampleBack() throws {
        store.storingFullExport = true
        _ = try store.insert((0..<4).map { sample($0) }, now: now)
        let rows = try store.queued(type: "heartRate", limit: 10).map(\.rowID)
        try store.recordDelivery(type: "heartRate", rowIDs: rows, at: now)
        let key = SampleStore.SampleKey(type: "heartRate", startMillis: sample(2).start.millis, id: sample(2).id)
        #expect(try store.recordInferredDeletions([key], exportMillis: 1, at: now, waiting: false) == ["heartRate"])
        #expect(try store.rows(type: "heartRate", startMillis: key.startMillis).map { [$0.deleted, $0.version >= 2] } == [[true, true]])
        #expect(try store.queuedCounts() == ["heartRate": 1])
        #expect(try store.samples(type: "heartRate", fromMillis: 0, toMillis: .max).count == 3)
        // Deleted already: not a candidate again.
        #expect(try store.deletionCandidates(types: ["heartRate"], since: .max, seen: SeenSampleIDs()).candidates.count == 3)
        let restored = try store.restoreDeletions(ids: nil)
        #expect(restored.count == 1 && restored.types == ["heartRate"])
        #expect(try store.rows(type: "heartRate", startMillis: key.startMillis).map { [$0.deleted, $0.version >= 3] } == [[false, true]])
        #expect(try store.inferredDeletions().map(\.state) == [.restored])
        // The next export still without it: put back by the person, it is not deleted again.
        #expect(try store.deletionCandidates(types: ["heartRate"], since: .max, seen: SeenSampleIDs()).candidates.count == 3)
    }

    @Test func waitingDeletionsChangeNothingUntilApplied() throws {
        store.storingFullExport = true
        _ = try store.insert((0..<4).map { sample($0) }, now: now)
        let key = SampleStore.SampleKey(type: "heartRate", startMillis: sample(1).start.millis, id: sample(1).id)
        try store.recordInferredDeletions([key], exportMillis: 1, at: now, waiting: true)
        #expect(try store.samples(type: "heartRate", fromMillis: 0, toMillis: .max).count == 4)
        #expect(try store.applyWaitingDeletions().count == 1)
        #expect(try store.samples(type: "heartRate", fromMillis: 0, toMillis: .max).count == 3)
        #expect(try store.inferredDeletions().map(\.state) == [.deleted])
    }

    @Test func insertsKeepFreshnessPerSourceAndCountLateSamples() throws {
        _ = try store.insert([sample(5), sample(6, source: "Phone")], now: now)
        #expect(try store.freshness().map { [$0.source, $0.type] } == [["Phone", "heartRate"], ["Watch", "heartRate"]])
        #expect(try store.freshness(source: "Watch", type: "heartRate")?.newestMillis == sample(5).start.millis)
        // A later arrival with one sample older than the newest stored (late) and one newer.
        let later = Timestamp(millis: now.millis + 86_400_000)
        store.beginArrivals()
        let r = try store.insert([sample(2), sample(9)], now: later)
        try store.endArrivals()
        #expect(r.late == 1 && r.new == 2)
        let watch = try #require(try store.freshness(source: "Watch", type: "heartRate"))
        #expect(watch.newestMillis == sample(9).start.millis && watch.arrivedMillis == later.millis && watch.arrivals == 2)
        #expect(watch.usualGapMillis == 86_400_000)
    }
}
