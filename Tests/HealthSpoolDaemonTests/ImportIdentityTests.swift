import Testing
import HealthSpoolCore
import HealthSpoolLinux
@testable import HealthSpoolStore
import Logging
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// What makes two imports the same (issue 13, item 2) and when the import's commit is durable
/// (issue 14, item 5).
@Suite struct ImportIdentityTests: ImporterSuite {
    let dir: String
    let store: SampleStore
    let importer: ExportImporter

    init() throws {
        (dir, store, importer) = try Self.makeImporter()
    }

    /// A file big enough that sampled blocks would miss a change in the middle.
    func export(middleValue: Int) -> String {
        var rows = (0..<4000).map { i in
            #"{"type":"heartRate","value":\#(60 + i % 40),"startDate":"2026-01-01T1\#(i / 3600):\#(format2(i / 60 % 60)):\#(format2(i % 60))Z"}"#
        }
        rows[2000] = #"{"type":"stepCount","value":\#(middleValue),"startDate":"2026-01-02T10:00:00Z"}"#
        return "[" + rows.joined(separator: ",\n") + "]"
    }

    func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    @Test func aFileOfTheSameLengthWithOneValueChangedIsImportedNotSkipped() throws {
        let before = export(middleValue: 1000), after = export(middleValue: 1500)
        #expect(before.utf8.count == after.utf8.count)
        let first = importer.importFile(path: try write("a.json", before), name: "a.json", settings: Settings())
        #expect(first.outcome == .imported && first.result.new == 4000)
        let second = importer.importFile(path: try write("b.json", after), name: "b.json", settings: Settings())
        #expect(second.outcome == .imported)
        #expect(second.result.new == 1 && second.result.duplicates == 3999)
        #expect(try store.samples(type: "stepCount", fromMillis: 0, toMillis: .max).map(\.sample.value).sorted() == [1000, 1500])
    }

    @Test func theSameFileAfterTypesEnableImportsWhatWasSkipped() throws {
        let text = #"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"},{"type":"dietaryWater","value":250,"unit":"mL","startDate":"2026-01-01T10:00:00Z"}]"#
        var settings = Settings()
        settings.disabledTypes = ["nutrition"]
        let first = importer.importFile(path: try write("a.json", text), name: "a.json", settings: settings)
        #expect(first.result.new == 1 && first.skipped == ["dietaryWater": 1])
        // Unchanged file, unchanged settings: recognized without parsing.
        #expect(importer.importFile(path: try write("b.json", text), name: "b.json", settings: settings).outcome == .unchanged)
        settings.disabledTypes = []
        let again = importer.importFile(path: try write("c.json", text), name: "c.json", settings: settings)
        #expect(again.outcome == .imported && again.result.new == 1 && again.result.duplicates == 1)
        #expect(try store.queuedCounts() == ["heartRate": 1, "dietaryWater": 1])
    }

    @Test func theIdentityIsASHA256OfEveryByte() throws {
        let path = try write("x.json", "abc")
        let id = try ExportImporter.fingerprint(ReadOnlyFile(path: path), settings: Settings())
        // FIPS 180-4's test vector for "abc".
        #expect(id.contains("sha256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(id.hasPrefix("v2:3:"))
    }

    @Test func theImportingConnectionCommitsDurably() throws {
        // The file is moved out of the spool once importFile returns: by then its samples must
        // be on disk (WAL fsynced at commit), not only in the page cache.
        let fresh = try SampleStore(path: dir + "/s.db")
        #expect(try fresh.synchronousMode() == 1)
        _ = ExportImporter(store: fresh, logger: Logger(label: "test"), clock: { Timestamp(millis: 0) })
        #expect(try fresh.synchronousMode() == 2)
        let s = importer.importFile(path: try write("d.json", #"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"}]"#),
                                    name: "d.json", settings: Settings())
        #expect(s.outcome == .imported)
        #expect(try store.synchronousMode() == 2)
    }
}
