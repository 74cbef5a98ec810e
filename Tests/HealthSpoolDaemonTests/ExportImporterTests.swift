import Testing
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The importer on real files and a real SQLite store in a temporary directory.
@Suite struct ExportImporterTests {
    let dir: String
    let store: SampleStore
    let importer: ExportImporter

    init() throws {
        var template = Array("/tmp/healthspool-import-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/s.db")
        importer = ExportImporter(store: store, logger: Logger(label: "test"), clock: { Timestamp(millis: 1_767_261_600_000) })
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try FileSystem.writeAtomically(path, Array(text.utf8))
        return path
    }

    @Test func aGoodFileIsImportedAndTheIdenticalFileAgainIsRecognizedAsUnchanged() throws {
        let text = #"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"},{"type":"stepCount","value":12,"startDate":"2026-01-01T10:00:00Z"}]"#
        let first = importer.importFile(path: try write("a.json", text), name: "a.json", settings: Settings())
        #expect(first.outcome == "imported" && first.result.new == 2 && first.format == "native-json")
        let again = importer.importFile(path: try write("b.json", text), name: "b.json", settings: Settings())
        #expect(again.outcome == "unchanged" && again.result.new == 0)
    }

    @Test func disabledTypesAreNeitherStoredNorCountedAsNew() throws {
        var settings = Settings()
        settings.disabledTypes = ["activity"]
        let text = #"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"},{"type":"stepCount","value":12,"startDate":"2026-01-01T10:00:00Z"}]"#
        let s = importer.importFile(path: try write("a.json", text), name: "a.json", settings: settings)
        #expect(s.result.new == 1 && s.skipped == ["stepCount": 1])
        #expect(try store.queuedCounts() == ["heartRate": 1])
    }

    @Test func aFileWithAnUnreadableSampleKeepsTheOthersAndSaysWhichOne() throws {
        let text = #"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"},{"type":"heartRate","startDate":"x"}]"#
        let s = importer.importFile(path: try write("m.json", text), name: "m.json", settings: Settings())
        #expect(s.outcome == "partial")
        #expect(s.result.new == 1)
        #expect(s.reason?.contains("sample 2") == true)
    }

    @Test func anUnrecognizedFileFailsWithAReasonThatNamesTheFormats() throws {
        let s = importer.importFile(path: try write("x.bin", "\u{1}\u{2}garbage"), name: "x.bin", settings: Settings())
        #expect(s.outcome == "failed")
        #expect(s.reason?.contains("Apple Health") == true)
    }

    @Test func theSpoolContractIgnoresPartialAndHiddenNames() {
        for name in [".x.json", "a.json.tmp", "a.part", "a.PARTIAL", "a.crdownload"] { #expect(!SpoolDirectory.isEligible(name)) }
        for name in ["export.zip", "data.json", "a.csv"] { #expect(SpoolDirectory.isEligible(name)) }
    }
}
