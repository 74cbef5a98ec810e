import Testing
import HealthSpoolCore
@testable import HealthJournal
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The store's queued, synced and parked counts (`type_counts`, `TypeCountTests` in the store's
/// tests) stay equal to a count over every sample when the journal queues its records.
@Suite struct JournalQueueCountTests {
    let store: SampleStore
    let now = Timestamp(millis: 1_767_261_600_000)

    init() throws {
        var template = Array("/tmp/healthspool-counts-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
    }

    func expectCountsMatchAScan(after step: String) throws {
        #expect(try store.countProblems() == [], "after \(step)")
    }

    /// Journal records are queued by their own statements (a new row, or the row of an earlier
    /// version moved past the mark): counted too.
    @Test func journalRecordsQueuedAgainAndDeliveredAreCounted() throws {
        let journal = JournalStore(store)
        var previous: [SampleID: Int64] = [:]
        for round in 0..<12 {
            let id = SampleID(bytes: [UInt8](repeating: UInt8(round % 4 + 1), count: 16))
            var entry = SymptomEntry(id: id, symptom: "headache", category: "Head",
                                     at: Timestamp(seconds: 1_767_261_600 + Int64(round) * 600), severity: .moderate)
            entry.version = round / 4 + 1
            let record = JournalRecord(entry)
            try store.transaction { try journal.queue(record, previousStart: previous[id], now: now) }
            previous[id] = record.start.millis
            if round % 3 == 2 {
                try store.recordDelivery(type: record.type, rowIDs: try store.queued(type: record.type, limit: 2).map(\.rowID), at: now)
            }
            try expectCountsMatchAScan(after: "journal round \(round)")
        }
    }
}
