import Testing
import HealthSpoolCore
import HealthSpoolLinux
@testable import HealthSpoolStore
import Logging
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The importer on real files and a real SQLite store in a temporary directory.
@Suite struct ExportImporterTests: ImporterSuite {
    let dir: String
    let store: SampleStore
    let importer: ExportImporter

    init() throws {
        (dir, store, importer) = try Self.makeImporter()
    }

    @Test func aGoodFileIsImportedAndTheIdenticalFileAgainIsRecognizedAsUnchanged() throws {
        let text = #"[{"type":"heartRate","value":61,"startDate":"2026-01-01T10:00:00Z"},{"type":"stepCount","value":12,"startDate":"2026-01-01T10:00:00Z"}]"#
        let first = importer.importFile(path: try write("a.json", text), name: "a.json", settings: Settings())
        #expect(first.outcome == .imported && first.result.new == 2 && first.format == "native-json")
        let again = importer.importFile(path: try write("b.json", text), name: "b.json", settings: Settings())
        #expect(again.outcome == .unchanged && again.result.new == 0)
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
        #expect(s.outcome == .partial)
        #expect(s.result.new == 1)
        #expect(s.reason?.contains("sample 2") == true)
    }

    @Test func anUnrecognizedFileFailsWithAReasonThatNamesTheFormats() throws {
        let s = importer.importFile(path: try write("x.bin", "\u{1}\u{2}garbage"), name: "x.bin", settings: Settings())
        #expect(s.outcome == .failed)
        #expect(s.reason?.contains("Apple Health") == true)
    }

    /// The import defers the rollups to its end and computes them there: no day is left marked,
    /// and the stored rollups are those a recomputation from the samples gives.
    @Test func anImportLeavesNoDayMarkedAndItsRollupsExact() throws {
        let text = #"[{"type":"stepCount","value":12,"startDate":"2026-01-01T10:00:00Z","endDate":"2026-01-01T10:10:00Z"},"#
            + #"{"type":"stepCount","value":30,"startDate":"2026-01-02T23:55:00Z","endDate":"2026-01-03T00:05:00Z"},"#
            + #"{"type":"heartRate","value":61,"startDate":"2026-01-03T10:00:00Z"}]"#
        let s = importer.importFile(path: try write("d.json", text), name: "d.json", settings: Settings())
        #expect(s.result.new == 3)
        #expect(!store.rollupsDeferred)
        #expect(try store.dirtyDays(fromDay: .min, toDay: .max).isEmpty)
        let stored = try store.storedRollups(fromDay: .min, toDay: .max, figures: nil)
        let recomputed = try store.recomputedRollups()
        #expect(stored.count == 4 && stored.count == recomputed.count)
        #expect(zip(stored, recomputed).allSatisfy { $0.agrees(with: $1) })
    }

    @Test func theSpoolContractIgnoresPartialAndHiddenNames() {
        for name in [".x.json", "a.json.tmp", "a.part", "a.PARTIAL", "a.crdownload"] { #expect(!SpoolDirectory.isEligible(name)) }
        for name in ["export.zip", "data.json", "a.csv"] { #expect(SpoolDirectory.isEligible(name)) }
    }
}

/// Stopping an import at a batch boundary: what was committed stays, and importing the same
/// file again finishes it without storing anything twice.
@Suite struct ExportImporterInterruptTests {
    /// An Apple Health export.xml of `count` heart-rate records, one a second: ~10 MB for 60,000,
    /// past the parser's 4 MiB progress interval.
    static func appleExport(count: Int) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<HealthData locale=\"en_US\">\n"
        xml += #" <ExportDate value="2026-01-02 10:00:00 +0100"/>"# + "\n"
        xml.reserveCapacity(count * 200)
        for i in 0..<count {
            let stamp = "2026-01-01 \(pad(i / 3600 % 24)):\(pad(i / 60 % 60)):\(pad(i % 60)) +0100"
            xml += #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" creationDate="\#(stamp)" startDate="\#(stamp)" endDate="\#(stamp)" value="\#(60 + i % 40)"/>"# + "\n"
        }
        return xml + "</HealthData>\n"
    }

    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    @Test func anInterruptedImportKeepsWhatItCommittedAndTheNextImportFinishesItOnce() throws {
        var template = Array("/tmp/healthspool-interrupt-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let store = try SampleStore(path: dir + "/s.db")
        let importer = ExportImporter(store: store, logger: Logger(label: "test"), clock: { Timestamp(millis: 1_767_261_600_000) })
        let total = 60_000
        let path = dir + "/export.xml"
        try FileSystem.writeAtomically(path, Array(Self.appleExport(count: total).utf8))

        // The stop request arrives while the parse is under way (at its first progress report).
        let first = importer.importFile(path: path, name: "export.xml", settings: Settings(),
                                        progress: { _, _ in importer.interrupt() })
        #expect(first.outcome == .interrupted)
        let kept = try store.sampleCount()
        #expect(kept > 0 && kept < total, "stopped part-way: \(kept) of \(total)")
        #expect(first.result.new == kept, "the summary counts exactly what was committed")
        #expect(first.reason?.contains("stays in the spool") == true)

        // The next start imports the file again: the committed part is recognized, the rest added.
        let resumed = ExportImporter(store: store, logger: Logger(label: "test"), clock: { Timestamp(millis: 1_767_261_700_000) })
        let second = resumed.importFile(path: path, name: "export.xml", settings: Settings())
        #expect(second.outcome == .imported)
        #expect(second.result.duplicates == kept && second.result.new == total - kept)
        #expect(try store.sampleCount() == total)
    }
}
