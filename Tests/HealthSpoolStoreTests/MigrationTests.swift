import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// A store written by schema 1 (sync state per row) opens under schema 2 (a mark per type)
/// with nothing lost and nothing that was queued counted as sent.
@Suite struct MigrationTests {
    @Test func aSchemaOneStoreKeepsItsSamplesQueueAndDeadLetters() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let path = dir + "/v1.db"
        let samples = (0..<5).map { i in
            Sample(type: "heartRate", value: Double(60 + i), unit: "count/min", start: Timestamp(seconds: 1_767_261_600 + Int64(i)),
                   source: SampleSource(name: "Watch", device: "<<HKDevice>>"), metadata: i == 0 ? ["k": "v"] : [:])
        }
        do {
            let c = try Connection(path: path)
            try c.exec(Schema.migrations[0])
            try c.exec("PRAGMA user_version = 1")
            try c.exec("INSERT INTO sources(id, name, version, device) VALUES (1, 'Watch', '', '<<HKDevice>>')")
            let ins = try c.prepare("""
                INSERT INTO samples(rowid, id, type, value, unit, start_ms, start_off, end_ms, end_off, source_id, metadata, created_ms, state, dead_reason)
                VALUES (?, ?, 'heartRate', ?, 'count/min', ?, 0, ?, 0, 1, ?, 1, ?, ?)
                """)
            // Rows 1–2 synced, row 3 parked, rows 4–5 queued.
            for (i, s) in samples.enumerated() {
                ins.bind(1, Int64(i + 1)); ins.bind(2, id: s.id); ins.bind(3, s.value)
                ins.bind(4, s.start.millis); ins.bind(5, s.end.millis); ins.bind(6, i == 0 ? #"{"k":"v"}"# : nil)
                ins.bind(7, i < 2 ? 1 : i == 2 ? 2 : 0); ins.bind(8, i == 2 ? "42207 bad" : nil)
                try ins.run()
            }
        }
        let store = try SampleStore(path: path)
        #expect(try store.sampleCount() == 5)
        #expect(try store.syncedCounts() == ["heartRate": 2])
        #expect(try store.deadLetterCounts() == ["heartRate": 1])
        #expect(try store.queued(type: "heartRate", limit: 10).map(\.sample) == [samples[3], samples[4]])
        #expect(try store.deadLetters().map(\.1) == ["42207 bad"])
        // Ids still find duplicates after the move to the new unique key.
        #expect(try store.insert(samples, now: Timestamp(millis: 2)).duplicates == 5)
        #expect(try store.samples(type: "heartRate", fromMillis: 0, toMillis: .max).first?.sample == samples[0])
    }
}

/// A schema 2 store (before delivered ids) opens under schema 3 in place.
@Suite struct MigrationToDeliveredIDsTests {
    @Test func aSchemaTwoStoreGainsTheDeliveredTableInPlace() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let path = dir + "/v2.db"
        let samples = (0..<3).map { i in
            Sample(type: "heartRate", value: Double(60 + i), unit: "count/min", start: Timestamp(seconds: 1_500_000_000 + Int64(i)),
                   source: SampleSource(name: "Watch"))
        }
        do {
            let c = try Connection(path: path)
            try c.exec(Schema.migrations[0])
            try c.exec(Schema.migrations[1])
            try c.exec("PRAGMA user_version = 2")
        }
        do {
            // Version 2 has no delivered table yet.
            let c = try Connection(path: path)
            #expect(throws: StoreError.self) { try c.exec("SELECT 1 FROM delivered") }
        }
        let store = try SampleStore(path: path)
        _ = try store.insert(samples, now: Timestamp(millis: 1))
        try store.recordDelivery(type: "heartRate", rowIDs: try store.queued(type: "heartRate", limit: 10).map(\.rowID), at: Timestamp(millis: 2))
        #expect(try store.pruneSynced(olderThanMillis: .max) == 3)
        #expect(try store.insert(samples, now: Timestamp(millis: 3)).duplicates == 3)
        let v = try Connection(path: path).prepare("PRAGMA user_version")
        _ = try v.step()
        #expect(v.int(0) == Int64(Schema.migrations.count))
    }
}
