import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// A real SQLite store and an importer in a fresh temporary directory, for the suites that
/// import real files.
protocol ImporterSuite {
    var dir: String { get }
}

extension ImporterSuite {
    /// Writes `text` to `name` in the suite's directory and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try FileSystem.writeAtomically(path, Array(text.utf8))
        return path
    }

    /// A new temporary directory, a store in it and an importer on that store, whose clock
    /// stands at 2026-01-01 10:00 UTC.
    static func makeImporter() throws -> (dir: String, store: SampleStore, importer: ExportImporter) {
        var template = Array("/tmp/healthspool-import-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let store = try SampleStore(path: dir + "/s.db")
        let importer = ExportImporter(store: store, logger: Logger(label: "test"), clock: { Timestamp(millis: 1_767_261_600_000) })
        return (dir, store, importer)
    }
}
