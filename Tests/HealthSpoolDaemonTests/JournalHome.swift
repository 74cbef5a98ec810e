import HealthSpoolConfig
import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// A configuration on a fresh temporary home for the daemon's tests that use the journal (the
/// home page, the notes' recordings swept by retention), as `JournalRunnerTests` in
/// HealthJournalTests makes one.
enum JournalHome {
    /// A context on a fresh temporary home; removed by the caller.
    static func context(_ environment: [String: String] = [:]) throws -> (Configuration, String) {
        var template = Array("/tmp/healthspool-runner-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        var env = ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run", "TZ": "UTC"]
        env.merge(environment) { $1 }
        return (try Configuration(environment: env), dir)
    }

    static let now = Timestamp(millis: 1_767_261_600_000, utcOffsetSeconds: 0)   // 2026-01-01T10:00Z
}
