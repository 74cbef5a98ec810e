import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Synchronization

/// "Sync now" from the browser: a call into the daemon's sync coordinator (`ManualSync`, handed
/// to the web at start), which syncs as `healthspool sync` does, and a progress figure the page
/// follows over server-sent events. Progress is the samples sent (finished types and the jobs
/// in flight, as the coordinator tells them) over what was queued when the sync began; 100 %
/// when the coordinator says it is done.
final class SyncRun: Sendable {
    /// What the page shows.
    struct Snapshot: Sendable {
        var percent = 0
        var message = "Not started."
        var done = true
    }

    /// The daemon's sync coordinator; nil when the web runs without the daemon (route tests).
    private let manual: ManualSync?
    private let state = Mutex(Snapshot())

    init(manual: ManualSync? = nil) { self.manual = manual }

    var snapshot: Snapshot { state.withLock { $0 } }

    /// Starts a sync unless one is running; returns whether it started.
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
        guard let manual else {
            update { $0 = Snapshot(percent: 0, message: "The background service is not running. Start it, then try again.", done: true) }
            return true
        }
        Task { await self.perform(manual, total: total) }
        return true
    }

    private func update(_ f: (inout Snapshot) -> Void) { state.withLock { f(&$0) } }

    private func perform(_ manual: ManualSync, total: Int) async {
        var finished = 0, inFlight = 0
        func shown() {
            let sent = finished + inFlight
            update { s in
                guard !s.done else { return }
                s.percent = total == 0 ? 99 : max(s.percent, min(99, sent * 100 / total))
                s.message = "\(sent) of \(total) entries sent"
            }
        }
        shown()
        for await event in await manual.start() {
            switch event {
            case let .finished(r):
                finished += r.sent
                shown()
            case let .inFlight(sent):
                inFlight = sent
                shown()
            case let .done(results):
                let sent = results.reduce(0) { $0 + $1.sent }
                let outcome = results.outcome.rawValue
                let errors = results.compactMap { $0.error?.description }
                let message = outcome == "success" ? "Done: \(sent) entries sent."
                    : "Finished with problems (\(sent) sent): \(errors.first ?? outcome)"
                return update { $0 = Snapshot(percent: 100, message: message, done: true) }
            case let .refused(message):
                return update { $0 = Snapshot(percent: 0, message: "Not sent: " + message, done: true) }
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
