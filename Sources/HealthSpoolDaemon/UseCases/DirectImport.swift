import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging

/// Files imported where they are, through the spool's importer: the use case behind
/// `healthspool import`. The store is opened once for all the files; a running daemon is told
/// afterwards which types gained samples, so it syncs them.
public final class DirectImport {
    let settings: Settings
    let controlSocket: String
    let importer: ExportImporter
    private(set) var gained: Set<String> = []

    /// Imports into `store` with `settings` (the types enabled, the duplicate rules); a daemon
    /// is told at `controlSocket`.
    public init(store: SampleStore, settings: Settings, controlSocket: String, logger: Logger) {
        self.settings = settings
        self.controlSocket = controlSocket
        importer = ExportImporter(store: store, logger: logger, clock: RealTimeClock.now)
    }

    /// Imports one file (a resolved path; `name` is what the summary calls it), reporting
    /// `progress(bytes, records)` as it reads.
    public func importFile(path: String, name: String, progress: ((Int64, Int) -> Void)? = nil) -> ImportSummary {
        let summary = importer.importFile(path: path, name: name, settings: settings, progress: progress)
        gained.formUnion(summary.result.gained.keys)
        return summary
    }

    /// Tells a running daemon which types gained samples (nothing when none runs or none gained).
    public func tellDaemon() {
        ControlClient.observe(gained.sorted(), socket: controlSocket)
    }
}
