import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// A schema 3 store (before the journal) opens under schema 4 in place: its samples keep their
/// queue, gain version 0 (a measurement), and the journal's tables are there.
@Suite struct JournalMigrationTests {
    @Test func aSchemaThreeStoreGainsTheJournalInPlace() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let path = dir + "/v3.db"
        let sample = Sample(type: "heartRate", value: 61, unit: "count/min", start: Timestamp(seconds: 1_767_261_600), source: SampleSource(name: "W"))
        do {
            let c = try Connection(path: path)
            for step in Schema.migrations.prefix(3) { try c.exec(step) }
            try c.exec("PRAGMA user_version = 3")
            try c.exec("INSERT INTO sources(id, name) VALUES (1, 'W'); INSERT INTO types(id, name) VALUES (1, 'heartRate')")
            let ins = try c.prepare("""
                INSERT INTO samples(rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off, source_id, created_ms)
                VALUES (1, 1, ?, ?, 61, 'count/min', 0, ?, 0, 1, 1)
                """)
            ins.bind(1, sample.start.millis); ins.bind(2, id: sample.id); ins.bind(3, sample.end.millis)
            try ins.run()
        }
        let store = try SampleStore(path: path)
        let version = try store.conn.prepare("PRAGMA user_version")
        _ = try version.step()
        #expect(version.int(0) >= 4)
        let batch = try store.queuedBatch(type: "heartRate", limit: 10)
        #expect(batch.ids == [sample.id] && batch.versions == [0] && batch.tombstones == [false])
        for table in ["journal_categories", "journal_symptoms", "symptom_entries", "lifestyle_entries"] {
            let rows = try store.conn.prepare("SELECT count(*) FROM \(table)")
            _ = try rows.step()
            #expect(rows.int(0) == 0, "\(table)")
        }
    }

    /// A measured goal's day reads one bounded range of `(type, start_ms)`, not every sample of
    /// the type from the first one on (ten years of steps on a large store).
    @Test func aDaysSamplesForAGoalAreABoundedRangeOfTheTypesIndex() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let store = try SampleStore(path: dir + "/plan.db")
        let plan = try store.conn.prepare("EXPLAIN QUERY PLAN \(SampleStore.overlappingSamplesQuery)")
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3) ?? "") }
        #expect(details.contains { $0.contains("(type=? AND start_ms>? AND start_ms<?)") }, "\(details)")
    }

    /// The measurements page reads the typed-in readings of a kind through their partial index,
    /// not every heart rate a watch recorded in the same 90 days; a store made before the index
    /// gains it when opened, and the readings come back the same.
    @Test func typedInMeasurementsAreReadThroughTheirOwnIndexNotTheWatchsSamples() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let path = dir + "/manual.db"
        let watch = SampleSource(name: "Apple Watch", device: "Watch")
        let start = Timestamp(seconds: 1_767_261_600)
        do {
            let store = try SampleStore(path: path)
            var samples = (0..<2000).map { i in
                Sample(type: "heartRate", value: 60, unit: "count/min", start: Timestamp(millis: start.millis + Int64(i) * 60_000), source: watch)
            }
            samples.append(Sample(type: "heartRate", value: 72, unit: "count/min", start: Timestamp(millis: start.millis + 90_000), source: ManualMeasurement.source))
            _ = try store.insert(samples, now: start)
            try store.conn.exec("DROP INDEX \(Schema.manualIndex)")   // as a store made before it
        }
        let store = try SampleStore(path: path)
        let manual = try #require(try store.existingSourceID(ManualMeasurement.source))
        let plan = try store.conn.prepare("EXPLAIN QUERY PLAN " + SampleStore.sourceSamplesQuery(sourceID: manual))
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3) ?? "") }
        #expect(details.contains { $0.contains("USING INDEX \(Schema.manualIndex)") }, "\(details)")
        let found = try store.samples(type: "heartRate", source: ManualMeasurement.source, fromMillis: start.millis,
                                      toMillis: start.millis + 86_400_000, limit: 200)
        #expect(found.map(\.sample.value) == [72])
        #expect(try store.samples(type: "heartRate", source: watch, fromMillis: start.millis, toMillis: start.millis + 86_400_000, limit: 5).count == 5)
    }
}
