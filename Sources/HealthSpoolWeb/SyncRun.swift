import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Synchronization

/// "Sync now" from the browser: asks the daemon over its control socket, as `healthspool sync`
/// does, and keeps a progress figure the page follows over server-sent events. Progress is the
/// samples sent (finished types from the daemon's answers, the type in flight from its status
/// file) over what was queued when the sync began; 100 % when the daemon says it is done.
final class SyncRun: Sendable {
    /// What the page shows.
    struct Snapshot: Sendable {
        var percent = 0
        var message = "Not started."
        var done = true
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    /// Starts a sync on a thread of its own unless one is running; returns whether it started.
    /// `queued`: the samples waiting per type (read from the connection the request borrowed),
    /// asked only when the sync starts; progress is counted against them.
    func start(context: Configuration, queued: () -> [String: Int]) -> Bool {
        let started = state.withLock { s -> Bool in
            guard s.done else { return false }
            s = Snapshot(percent: 0, message: "Starting…", done: false)
            return true
        }
        guard started else { return false }
        let total = queued().filter { context.settings.isSent($0.key) }.values.reduce(0, +)
        // Queues of their own, not global ones (issue 39: see `TaskThreadPool`).
        DispatchQueue(label: "healthspool.web.sync").async { self.perform(context, total: total) }
        return true
    }

    private func update(_ f: (inout Snapshot) -> Void) { state.withLock { f(&$0) } }

    private func perform(_ context: Configuration, total: Int) {
        guard let client = ControlClient(path: context.controlSocket) else {
            return update { $0 = Snapshot(percent: 0, message: "The background service is not running. Start it, then try again.", done: true) }
        }
        guard client.send(.object([("command", .string("sync")), ("types", .array([]))])) else {
            return update { $0 = Snapshot(percent: 0, message: "The background service did not take the request.", done: true) }
        }
        let finished = Mutex(0)
        // While the daemon works, its status file tells how far the type in flight is.
        let watching = Mutex(true)
        DispatchQueue(label: "healthspool.web.sync.progress").async {
            while watching.withLock({ $0 }) {
                var live = 0
                if let text = try? FileSystem.readText(context.statusFile), let v = try? JSONParser.parse(text) {
                    live = (v["syncing"]?.objectValue ?? []).reduce(0) { $0 + ($1.1.intValue ?? 0) }
                }
                let sent = finished.withLock { $0 } + live
                self.update { s in
                    guard !s.done else { return }
                    s.percent = total == 0 ? 99 : max(s.percent, min(99, sent * 100 / total))
                    s.message = "\(sent) of \(total) entries sent"
                }
                usleepMillis(250)
            }
        }
        defer { watching.withLock { $0 = false } }
        while let line = client.next() {
            switch line["event"]?.stringValue {
            case "progress":
                finished.withLock { $0 += line["sent"]?.intValue ?? 0 }
            case "done":
                let sent = line["sent"]?.intValue ?? 0
                let outcome = line["outcome"]?.stringValue ?? ""
                let errors = (line["results"]?.arrayValue ?? []).compactMap { $0["error"]?.stringValue }
                let message = outcome == "success" ? "Done: \(sent) entries sent."
                    : "Finished with problems (\(sent) sent): \(errors.first ?? outcome)"
                return update { $0 = Snapshot(percent: 100, message: message, done: true) }
            case "error":
                let message = line["message"]?.stringValue ?? "the background service refused the sync"
                return update { $0 = Snapshot(percent: 0, message: "Not sent: " + message, done: true) }
            default: break
            }
        }
        update { $0 = Snapshot(percent: 0, message: "The background service stopped answering.", done: true) }
    }

    /// The snapshot as one server-sent event.
    static func event(_ s: Snapshot) -> String {
        var w = JSONWriter()
        w.raw("{\"percent\":"); w.number(Int64(s.percent))
        w.raw(",\"message\":"); w.string(s.message)
        w.raw(",\"done\":"); w.raw(s.done ? "true" : "false"); w.raw("}")
        return "data: " + w.text + "\n\n"
    }
}

#if canImport(Glibc)
import Glibc
func usleepMillis(_ ms: Int) { usleep(useconds_t(ms * 1000)) }
#endif
