import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Real SQLite in a temporary directory.
@Suite struct SampleStoreTests {
    let path: String
    let store: SampleStore
    let now = Timestamp(millis: 1_767_261_600_000)

    init() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        path = dir + "/test.db"
        store = try SampleStore(path: path)
    }

    func sample(_ i: Int, type: String = "heartRate", value: Double? = nil, revisable: Bool = false) -> Sample {
        Sample(type: type, value: value ?? Double(60 + i), unit: "count/min", start: Timestamp(seconds: 1_767_261_600 + Int64(i)),
               source: SampleSource(name: "Watch"), revisable: revisable)
    }

    @Test func duplicatesAreStoredOnceAndCountedPerType() throws {
        let first = try store.insert((0..<5).map { sample($0) }, now: now)
        #expect(first.new == 5 && first.gained == ["heartRate": 5])
        let again = try store.insert((3..<8).map { sample($0) }, now: now)
        #expect(again.new == 3 && again.duplicates == 2 && again.duplicatesByType == ["heartRate": 2])
        #expect(try store.sampleCount() == 8)
    }

    /// `status` and the metrics add queued, synced and parked counts taken one after the other
    /// while the daemon marks batches synced: in a snapshot a batch marked in between is not
    /// counted twice (the 1 GB stop benchmark showed 15,300 samples more than the export held).
    @Test func countsTakenInASnapshotAddUpWhileAnotherConnectionMarksABatchSynced() throws {
        _ = try store.insert((0..<100).map { sample($0) }, now: now)
        let daemon = try SampleStore(path: path)
        let (queued, synced) = try store.snapshot { () throws(StoreError) in
            let queued = try store.queuedCounts()["heartRate"] ?? 0
            try daemon.recordDelivery(type: "heartRate", rowIDs: try daemon.queued(type: "heartRate", limit: 40).map(\.rowID), at: now)
            return (queued, try store.syncedCounts()["heartRate"] ?? 0)
        }
        #expect(queued + synced == 100)
        // Outside a snapshot the same two reads see the mark in between: the sum is off by 40.
        let before = try store.queuedCounts()["heartRate"] ?? 0
        try daemon.recordDelivery(type: "heartRate", rowIDs: try daemon.queued(type: "heartRate", limit: 10).map(\.rowID), at: now)
        #expect(before + (try store.syncedCounts()["heartRate"] ?? 0) == 110)
    }

    /// The web overview's counts: exact up to the limit, `limit + 1` past it (shown as "more
    /// than"), per type; types with nothing queued are absent.
    @Test func queuedCountsUpToALimitStopCountingPastIt() throws {
        _ = try store.insert((0..<25).map { sample($0) } + (0..<3).map { sample($0, type: "stepCount") }, now: now)
        #expect(try store.queuedCounts(upTo: 10) == ["heartRate": 11, "stepCount": 3])
        #expect(try store.queuedCounts(upTo: 100) == (try store.queuedCounts()))
    }

    @Test func aRevisedValueReplacesTheSampleAndQueuesItAgain() throws {
        _ = try store.insert([sample(0, type: "stepCount", value: 1000, revisable: true)], now: now)
        let q = try store.queued(type: "stepCount", limit: 10)
        try store.recordDelivery(q, at: now)
        #expect(try store.queuedCounts().isEmpty)
        let r = try store.insert([sample(0, type: "stepCount", value: 1500, revisable: true)], now: now)
        #expect(r.revised == 1 && r.new == 0)
        let requeued = try store.queued(type: "stepCount", limit: 10)
        #expect(requeued.map(\.sample.value) == [1500])
        #expect(requeued[0].sample.id == q[0].sample.id)
        #expect(try store.insert([sample(0, type: "stepCount", value: 1500, revisable: true)], now: now).duplicates == 1)
    }

    @Test func aSampleRevisedWhileInFlightStaysQueued() throws {
        _ = try store.insert([sample(0, type: "stepCount", value: 1000, revisable: true)], now: now)
        let sent = try store.queued(type: "stepCount", limit: 10)
        _ = try store.insert([sample(0, type: "stepCount", value: 1200, revisable: true)], now: now)
        try store.recordDelivery(sent, at: now)
        #expect(try store.queued(type: "stepCount", limit: 10).map(\.sample.value) == [1200])
    }

    @Test func queuedReadsPastACursorInInsertionOrder() throws {
        _ = try store.insert((0..<10).map { sample($0) }, now: now)
        let a = try store.queued(type: "heartRate", limit: 4)
        let b = try store.queued(type: "heartRate", limit: 4, afterRowID: a.last!.rowID)
        #expect(a.count == 4 && b.count == 4)
        #expect(Set(a.map(\.rowID)).isDisjoint(with: b.map(\.rowID)))
        #expect(b.first!.rowID > a.last!.rowID)
        #expect(a[0].sample == sample(0))
    }

    @Test func parkedSamplesLeaveTheQueueAndCanBeQueuedAgain() throws {
        _ = try store.insert((0..<3).map { sample($0) }, now: now)
        let q = try store.queued(type: "heartRate", limit: 10)
        // The first two were sent; the gateway rejected the second; the third is still queued.
        try store.recordDelivery(type: "heartRate", rowIDs: [q[0].rowID, q[1].rowID], rejected: [(q[1].rowID, "42207 bad value")], at: now)
        #expect(try store.queuedCounts() == ["heartRate": 1])
        #expect(try store.syncedCounts() == ["heartRate": 1])
        #expect(try store.deadLetters().map(\.1) == ["42207 bad value"])
        #expect(try store.requeueDeadLetters() == ["heartRate": 1])
        #expect(try store.queuedCounts() == ["heartRate": 2])
    }

    @Test func metadataSurvivesTheRoundTrip() throws {
        var s = sample(1)
        s.metadata = ["HKMetadataKeyHeartRateMotionContext": "1", "note": "a \"quoted\" value"]
        _ = try store.insert([s], now: now)
        #expect(try store.queued(type: "heartRate", limit: 1).first?.sample.metadata == s.metadata)
    }

    @Test func historyKeepsNewestFirst() throws {
        for i in 0..<3 {
            try store.recordSync(SyncAttempt(started: now.adding(millis: Int64(i)), durationMillis: 5, trigger: "manual",
                                             types: ["heartRate"], outcome: i == 2 ? "failed" : "success", count: i, error: i == 2 ? "HTTP 503" : nil))
        }
        let h = try store.syncHistory(limit: 10)
        #expect(h.map(\.count) == [2, 1, 0])
        #expect(try store.lastSuccessfulSync()?.count == 1)
    }

    @Test func pruningRemovesOnlySyncedSamples() throws {
        _ = try store.insert((0..<4).map { sample($0) }, now: now)
        let q = try store.queued(type: "heartRate", limit: 2)
        try store.recordDelivery(q, at: now)
        #expect(try store.pruneSynced(olderThanMillis: now.millis + 86_400_000) == 2)
        #expect(try store.queuedCounts() == ["heartRate": 2])
    }

    @Test func underTheSizeLimitTheOldestSyncedGoFirstAndUnsyncedStay() throws {
        _ = try store.insert((0..<10).map { sample($0) }, now: now)
        let q = try store.queued(type: "heartRate", limit: 6)
        try store.recordDelivery(q, at: now)
        #expect(try store.pruneOldestSynced(keeping: 2) == 4)
        let left = try store.samples(type: "heartRate", fromMillis: 0, toMillis: .max)
        #expect(left.count == 6)
        #expect(try store.syncedCounts() == ["heartRate": 2])
        #expect(try store.queuedCounts() == ["heartRate": 4])
        #expect(!left.map(\.sample).contains(sample(0)))
        #expect(left.map(\.sample).contains(sample(5)))
    }

    @Test func theEncodedQueueHoldsTheRowsOfTheSampleQueueInTheSameOrder() throws {
        // Two types in alternating batches, part of one delivered, one parked.
        for b in 0..<4 {
            _ = try store.insert((0..<25).map { sample(b * 100 + $0, type: b % 2 == 0 ? "heartRate" : "stepCount") }, now: now)
        }
        let first = try store.queued(type: "heartRate", limit: 10)
        try store.recordDelivery(first, rejected: [(first[9], "42207 bad")], at: now)
        for type in ["heartRate", "stepCount"] {
            var cursor: Int64 = 0
            while true {
                let samples = try store.queued(type: type, limit: 7, afterRowID: cursor)
                let encoded = try store.queuedBatch(type: type, limit: 7, afterRowID: cursor)
                #expect(encoded.rowIDs == samples.map(\.rowID))
                guard let last = samples.last else { break }
                cursor = last.rowID
            }
        }
        #expect(try store.queuedBatch(type: "heartRate", limit: 100).count == 40)
    }

    @Test func theSyncPathEncodesRowsExactlyAsSamplesInMemory() throws {
        var odd = sample(1, value: 0.1 + 0.2)
        odd.metadata = ["b": "2", "a": "x\"y\\z\n", "HKWasUserEntered": "1"]
        odd.unit = "kcal"
        odd.end = Timestamp(millis: odd.start.millis + 90_500, utcOffsetSeconds: -12_600)
        var elsewhere = sample(2, value: -3)
        elsewhere.source = SampleSource(name: "Phone \"7\"", version: "17.1", device: "iPhone")
        elsewhere.start = Timestamp(millis: elsewhere.start.millis, utcOffsetSeconds: 19_800)
        elsewhere.end = elsewhere.start
        var huge = sample(3, value: 1e300)
        huge.unit = "count/min"
        _ = try store.insert([sample(0), odd, elsewhere, huge, sample(4)], now: now)
        let samples = try store.queued(type: "heartRate", limit: 10)
        #expect(samples.count == 5)
        let batch = try store.queuedBatch(type: "heartRate", limit: 10)
        #expect(batch.ids == samples.map(\.sample.id))
        let envelope = BatchEnvelope(deviceId: "dev", userId: "alice", appVersion: "0.1.0")
        for format in GatewayFormat.allCases {
            // The FHIR formats' rows are encoded as resources as they are read.
            let batch = format.carriesFHIR ? try store.queuedBatch(type: "heartRate", limit: 10, fhirUser: envelope.userId) : batch
            for part in [0..<5, 1..<4, 2..<3, 0..<0] {
                #expect(batch.body(part, format: format, envelope: envelope, now: now)
                        == BatchEncoder.encode(samples[part], format: format, envelope: envelope, now: now))
            }
        }
        // And the body is what the samples say, read back.
        let body = try JSONParser.parse(batch.body(0..<5, format: .json, envelope: envelope, now: now))
        let second = body["samples"]?.arrayValue?[1]
        #expect(second?["metadata"]?["a"]?.stringValue == "x\"y\\z\n" && second?["value"]?.doubleValue == 0.1 + 0.2)
        #expect(second?["endDate"]?.stringValue == odd.end.iso8601Local && second?["unit"]?.stringValue == "kcal")
        #expect(body["samples"]?.arrayValue?[2]["source"]?["name"]?.stringValue == "Phone \"7\"")
    }

    @Test func aBatchOverACrowdedWindowOfStoredSamplesStillFindsItsDuplicates() throws {
        let all = (0..<300).map { sample($0 * 10) }
        _ = try store.insert(all, now: now)
        #expect(try store.insert(all, now: now).duplicates == 300)   // the next batch reads windows first
        // Three samples whose window spans all 300 stored rows: too many to read, looked up one by one.
        let r = try store.insert([sample(0), sample(5), sample(2990)], now: now)
        #expect(r.new == 1 && r.duplicates == 2)
        // A narrow window is read in one range; a sample twice in one batch is stored once.
        let again = try store.insert([sample(100), sample(101), sample(101), sample(110)], now: now)
        #expect(again.new == 1 && again.duplicates == 3)
        #expect(try store.sampleCount() == 302)
    }

    @Test func samplesAddedAfterTheNewestSyncedOnesWerePrunedAreStillQueued() throws {
        _ = try store.insert((0..<3).map { sample($0) }, now: now)
        try store.recordDelivery(try store.queued(type: "heartRate", limit: 10), at: now)
        #expect(try store.pruneSynced(olderThanMillis: .max) == 3)
        // The rows are gone, the mark stays: new rows must land past it, not under it.
        _ = try store.insert((3..<5).map { sample($0) }, now: now)
        #expect(try store.queuedCounts() == ["heartRate": 2])
        #expect(try store.queued(type: "heartRate", limit: 10).map(\.sample) == [sample(3), sample(4)])
    }

    @Test func aFailedBatchStaysQueuedInItsPlace() throws {
        _ = try store.insert((0..<6).map { sample($0) }, now: now)
        let batch = try store.queued(type: "heartRate", limit: 4)
        // The gateway took the first two, then went away: the rest of the batch is retried.
        try store.recordDelivery(batch, retry: Array(batch[2...]), at: now)
        let left = try store.queued(type: "heartRate", limit: 10)
        #expect(Array(left.prefix(2).map(\.rowID)) == batch[2...].map(\.rowID))
        #expect(left.map(\.sample) == (2..<6).map { sample($0) })
        #expect(try store.syncedCounts() == ["heartRate": 2])
    }

    @Test func aRecordToRetryAmongDeliveredOnesMovesToTheEndOfTheQueue() throws {
        _ = try store.insert((0..<5).map { sample($0) }, now: now)
        let batch = try store.queued(type: "heartRate", limit: 3)
        // Per-record results: the middle record got 50003, the ones around it were accepted.
        try store.recordDelivery(batch, retry: [batch[1]], at: now)
        let left = try store.queued(type: "heartRate", limit: 10)
        #expect(left.map(\.sample) == [sample(3), sample(4), sample(1)])
        #expect(left[2].sample.id == batch[1].sample.id)
        #expect(try store.syncedCounts() == ["heartRate": 2])
    }

    @Test func recordingARejectedSampleParksItAndMovesPastIt() throws {
        _ = try store.insert((0..<3).map { sample($0) }, now: now)
        let batch = try store.queued(type: "heartRate", limit: 3)
        try store.recordDelivery(batch, rejected: [(batch[2], "42207 bad value")], at: now)
        #expect(try store.queuedCounts().isEmpty)
        #expect(try store.deadLetterCounts() == ["heartRate": 1])
        #expect(try store.syncedCounts() == ["heartRate": 2])
        #expect(try store.requeueDeadLetters(type: "heartRate") == ["heartRate": 1])
        #expect(try store.queued(type: "heartRate", limit: 10).map(\.sample) == [sample(2)])
    }

    @Test func afterAMostlyDuplicateBatchNewSamplesAndRevisionsStillCount() throws {
        let first = [sample(0, type: "stepCount", value: 5, revisable: true)] + (0..<10).map { sample($0) }
        _ = try store.insert(first, now: now)
        let again = try store.insert(first, now: now)   // all duplicates: the next batch looks ids up first
        #expect(again.duplicates == 11)
        let mixed = try store.insert((5..<15).map { sample($0) } + [sample(0, type: "stepCount", value: 6, revisable: true)], now: now)
        #expect(mixed.new == 5 && mixed.duplicates == 5 && mixed.revised == 1)
        #expect(mixed.duplicatesByType == ["heartRate": 5] && mixed.gained == ["heartRate": 5, "stepCount": 1])
        #expect(try store.sampleCount() == 16)
    }
}
