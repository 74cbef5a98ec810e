import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The send queue as runs of row ids (schema step 11, issue 44): a bulk insert records a run per
/// type instead of an index entry per row, the queue read through the runs keeps the send order,
/// and runs behind a mark go.
@Suite struct QueueRunTests {
    let store: SampleStore
    let now = Timestamp(millis: 1_767_261_600_000)

    init() throws {
        var template = Array("/tmp/healthspool-runs-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
    }

    func sample(_ i: Int, type: String) -> Sample {
        Sample(type: type, value: Double(i), unit: "count", start: Timestamp(seconds: 1_767_261_600 + Int64(i) * 60),
               source: SampleSource(name: "Watch"))
    }

    func runs() throws -> [[Int64]] {
        let s = try store.conn.prepare("SELECT type, first, last FROM queue_runs ORDER BY first")
        var out: [[Int64]] = []
        while try s.step() { out.append([s.int(0), s.int(1), s.int(2)]) }
        return out
    }

    @Test func aBulkInsertRecordsARunPerTypeAndNoIndexEntryPerRow() throws {
        let types = ["heartRate", "stepCount", "activeEnergyBurned"]
        // Interleaved as a phone's push might be: the insert sorts by type, so each type's rows are consecutive.
        _ = try store.insert((0..<90).map { sample($0, type: types[$0 % 3]) }, now: now)
        #expect(try runs().count == 3)
        for (k, type) in types.enumerated() {
            #expect(try store.queued(type: type, limit: 100).map(\.sample) == stride(from: k, to: 90, by: 3).map { sample($0, type: type) })
        }
        let indexes = try store.conn.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'samples' AND sql IS NOT NULL")
        var names: [String] = []
        while try indexes.step() { names.append(indexes.string(0) ?? "") }
        #expect(!names.contains("samples_queue"))
        #expect(names.contains("samples_parked"))
    }

    @Test func aDeliveredRunGoesAndARetriedRowJoinsTheEndOfTheLine() throws {
        _ = try store.insert((0..<10).map { sample($0, type: "heartRate") }, now: now)
        _ = try store.insert((0..<5).map { sample($0, type: "stepCount") }, now: now)
        _ = try store.insert((10..<20).map { sample($0, type: "heartRate") }, now: now)
        // heartRate: two runs, stepCount between them.
        #expect(try runs().map(\.[2]) == [10, 15, 25])
        let first = try store.queued(type: "heartRate", limit: 12)
        try store.recordDelivery(first, retry: [first[3]], at: now)
        // The first run is behind the mark: gone. The retried row took a fresh row id past every row,
        // right after heartRate's last run, which it extends.
        #expect(try runs().map { [$0[1], $0[2]] } == [[11, 15], [16, 26]])
        #expect(try store.queued(type: "heartRate", limit: 100).map(\.sample)
                == (12..<20).map { sample($0, type: "heartRate") } + [sample(3, type: "heartRate")])
        #expect(try store.queuedCounts() == ["heartRate": 9, "stepCount": 5])
        #expect(try store.uncoveredQueuedRows() == 0)
        // Reading past a cursor inside a run starts there.
        #expect(try store.queued(type: "heartRate", limit: 2, afterRowID: 20).map(\.rowID) == [21, 22])
    }
}
