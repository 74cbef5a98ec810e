import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Samples read back carry the id they were stored under, which is the id their fields derive.
@Suite struct StoredIDTests {
    @Test func queuedAndDeadLetterSamplesKeepTheirIDs() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let store = try SampleStore(path: dir + "/test.db")
        let now = Timestamp(millis: 1_767_261_600_000)
        var samples: [Sample] = []
        for i in 0..<4 {
            let start = Timestamp(seconds: 1_767_261_600 + Int64(i))
            let metadata: [String: String] = i == 1 ? ["k": "v"] : [:]
            samples.append(Sample(type: "stepCount", value: Double(100 * i), unit: "count", start: start,
                                  source: SampleSource(name: "Phone"), metadata: metadata, revisable: i == 2))
        }
        _ = try store.insert(samples, now: now)
        let queued = try store.queued(type: "stepCount", limit: 10)
        #expect(queued.map { (q: StoredSample) in q.sample.id } == samples.map { (s: Sample) in s.id })
        for q in queued {
            var recomputed = q.sample
            recomputed.refreshID()
            #expect(recomputed.id == q.sample.id)
        }
        #expect(queued[1].sample.metadata == ["k": "v"])
        try store.recordDelivery(type: "stepCount", rowIDs: queued.map(\.rowID), rejected: [(queued[3].rowID, "42207 bad")], at: now)
        let dead = try store.deadLetters()
        #expect(dead.count == 1 && dead[0].0.sample.id == samples[3].id && dead[0].1 == "42207 bad")
    }

    @Test func aSampleRevisedWhileItsBatchWasInFlightStaysQueued() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let store = try SampleStore(path: dir + "/test.db")
        let now = Timestamp(millis: 1_767_261_600_000)
        var samples: [Sample] = []
        for i in 0..<1203 {
            samples.append(Sample(type: "stepCount", value: Double(i), unit: "count", start: Timestamp(seconds: 1_767_261_600 + Int64(i) * 60),
                                  source: SampleSource(name: "Phone"), revisable: true))
        }
        _ = try store.insert(samples, now: now)
        let sent = try store.queued(type: "stepCount", limit: 2000)
        #expect(sent.count == 1203)
        // While they were in flight, sample 700 was revised: it must stay queued.
        var revised = samples[700]
        revised.value = 9999
        _ = try store.insert([revised], now: now)
        try store.recordDelivery(type: "stepCount", rowIDs: sent.map(\.rowID), at: now)
        let left = try store.queued(type: "stepCount", limit: 2000)
        #expect(left.count == 1 && left[0].sample.value == 9999 && left[0].sample.id == samples[700].id)
        #expect(try store.syncedCounts() == ["stepCount": 1202])
        // Recording the same batch again changes nothing.
        try store.recordDelivery(type: "stepCount", rowIDs: sent.map(\.rowID), at: now)
        #expect(try store.queued(type: "stepCount", limit: 2000).count == 1)
    }
}
