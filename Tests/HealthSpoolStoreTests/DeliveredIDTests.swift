import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Pruning forgets a sample's payload, never that it was delivered (issue 13, item 1).
@Suite struct DeliveredIDTests {
    let store: SampleStore
    let now = Timestamp(millis: 1_767_261_600_000)

    init() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
    }

    func sample(_ i: Int, type: String = "heartRate", value: Double? = nil, revisable: Bool = false) -> Sample {
        Sample(type: type, value: value ?? Double(60 + i), unit: "count/min", start: Timestamp(seconds: 1_500_000_000 + Int64(i) * 86_400),
               source: SampleSource(name: "Watch"), revisable: revisable)
    }

    func deliverAll() throws {
        for type in try store.typesWithQueuedSamples() { try store.recordDelivery(type: type, rowIDs: try store.queued(type: type, limit: 1000).map(\.rowID), at: now) }
    }

    @Test(arguments: [false, true])
    func aPrunedSampleImportedAgainIsNeitherStoredNorQueued(bySize: Bool) throws {
        let export = (0..<11).map { sample($0) }
        _ = try store.insert(export, now: now)
        try deliverAll()
        let pruned = bySize ? try store.pruneOldestSynced(keeping: 0) : try store.pruneSynced(olderThanMillis: now.millis)
        #expect(pruned == 11)
        #expect(try store.sampleCount() == 0)
        #expect(try store.deliveredCount() == 11)
        // Next month's cumulative export: the same 11 and one new sample.
        let r = try store.insert(export + [sample(11)], now: now)
        #expect(r.new == 1 && r.duplicates == 11)
        #expect(try store.queuedCounts() == ["heartRate": 1])
        #expect(try store.queued(type: "heartRate", limit: 10).map(\.sample) == [sample(11)])
    }

    @Test func afterAMostlyDuplicateBatchPrunedSamplesStillCountAsDuplicates() throws {
        // The probe-first path (a cumulative export again) must consult delivered ids too.
        _ = try store.insert((0..<20).map { sample($0) }, now: now)
        try deliverAll()
        #expect(try store.pruneOldestSynced(keeping: 10) == 10)
        _ = try store.insert((10..<20).map { sample($0) }, now: now)  // all stored: probe first next time
        let r = try store.insert((0..<21).map { sample($0) }, now: now)
        #expect(r.new == 1 && r.duplicates == 20)
        #expect(try store.queuedCounts() == ["heartRate": 1])
    }

    @Test func aPrunedRevisableSampleIsSentAgainOnlyWithANewValue() throws {
        _ = try store.insert([sample(0, type: "stepCount", value: 1000, revisable: true)], now: now)
        try deliverAll()
        #expect(try store.pruneSynced(olderThanMillis: now.millis) == 1)
        let same = try store.insert([sample(0, type: "stepCount", value: 1000, revisable: true)], now: now)
        #expect(same.duplicates == 1 && same.new == 0 && same.revised == 0)
        let revised = try store.insert([sample(0, type: "stepCount", value: 1500, revisable: true)], now: now)
        #expect(revised.revised == 1 && revised.new == 0)
        #expect(try store.queued(type: "stepCount", limit: 10).map(\.sample.value) == [1500])
    }

    @Test func unsyncedSamplesAreNeverPrunedNorRecordedAsDelivered() throws {
        _ = try store.insert((0..<4).map { sample($0) }, now: now)
        #expect(try store.pruneSynced(olderThanMillis: .max) == 0)
        #expect(try store.pruneOldestSynced(keeping: 0) == 0)
        #expect(try store.deliveredCount() == 0)
        #expect(try store.queuedCounts() == ["heartRate": 4])
    }
}
