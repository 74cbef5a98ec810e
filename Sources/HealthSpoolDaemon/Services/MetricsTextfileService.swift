import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import Logging
import ServiceLifecycle

/// Writes the metrics for node_exporter's textfile collector (`metrics.textfile`): every
/// `MetricsTiming.textfileIntervalSeconds` the metrics are gathered, and when the text differs
/// from what the file holds, it is replaced atomically (a temporary file in the same directory,
/// then a rename: the collector never reads half a file). The path is asked for at each round,
/// so a reload that sets, changes or clears it takes effect within one interval. The file is
/// left in place at a stop; node_exporter's `node_textfile_mtime_seconds` shows its age.
/// The rounds keep the service clock (a unit test advances it by hand instead of waiting).
struct MetricsTextfileService: Service {
    let metrics: DaemonMetrics
    let clock: any ServiceClock
    let logger: Logger
    /// The file's path now, nil when off.
    let path: @Sendable () async -> String?

    func run() async throws {
        var written: (path: String, text: String)?
        var failedPath: String?
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            if let path = await path() {
                let text = await metrics.text()
                if written?.path != path || written?.text != text {
                    do {
                        let exposure = try await Self.write(text, to: path)
                        if let exposure, written?.path != path {
                            logger.warning("the metrics file is written safely, but \(exposure) (metrics.textfile); a folder only this user and node_exporter can write is better",
                                           metadata: ["event": "config", "file": "\(path)"])
                        }
                        written = (path, text)
                        failedPath = nil
                    } catch {
                        // Said once per path, not every round.
                        if failedPath != path {
                            logger.error("cannot write the metrics file \(path) (metrics.textfile): \(error); check that its directory exists and is writable by this user",
                                         metadata: ["event": "error", "file": "\(path)"])
                        }
                        failedPath = path
                        written = nil
                    }
                }
            } else {
                written = nil
            }
            let next = clock.now().millis + Int64(MetricsTiming.textfileIntervalSeconds) * 1000
            let clock = clock
            guard await cancelWhenGracefulShutdown({ await clock.sleep(until: next) }) else { break }
        }
    }

    /// Replaces the file (mode 0644: node_exporter runs as another user), off the cooperative pool.
    /// Returns what another user could do in the file's directory (`SafeWrite.exposure`).
    static func write(_ text: String, to path: String) async throws -> DirectoryExposure? {
        let result: Result<DirectoryExposure?, Error> = await withCheckedContinuation { continuation in
            DaemonMetrics.queue.async {
                continuation.resume(returning: Result { try SafeWrite.replace(path, Array(text.utf8), mode: 0o644) })
            }
        }
        return try result.get()
    }
}
