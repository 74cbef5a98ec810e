import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

extension SyncCoordinator {
    /// Handles one control request (another process's) on the coordination queue.
    func handleControl(_ request: JSONValue, client: Int32) {
        let command = request["command"]?.stringValue ?? ""
        switch command {
        case "ping":
            var w = JSONWriter()
            w.raw("{\"event\":\"pong\",\"pid\":"); w.number(Int64(getpid())); w.raw("}")
            SyncWaiter.reply(client, w)
        case "observe":
            // `healthspool import` stored samples outside the spool: observe their types.
            let types = request["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            observe(types)
            var w = JSONWriter()
            w.raw("{\"event\":\"ok\"}")
            SyncWaiter.reply(client, w)
        case "sync":
            let types = request["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            syncNow(types, waiter: .socket(client, registered: clock.now().millis))
        default:
            var w = JSONWriter()
            w.raw("{\"event\":\"error\",\"message\":"); w.string("unknown command '\(command)'"); w.raw("}")
            SyncWaiter.reply(client, w)
        }
    }

    /// A manual sync asked inside the process (the web's "Sync now", through `ManualSync`): the
    /// same as the control socket's `sync`, its answers as a stream that ends with the outcome.
    func syncNow(_ types: [String]) -> AsyncStream<SyncWaiter.Answer> {
        let (answers, continuation) = AsyncStream.makeStream(of: SyncWaiter.Answer.self)
        syncNow(types, waiter: .stream(continuation, registered: clock.now().millis))
        return answers
    }

    /// Syncs `types` (every type with queued samples when empty) now, past the throttle, and
    /// tells `waiter` how it goes; refused while locked, without a gateway or with settings the
    /// gateway cannot use.
    func syncNow(_ requested: [String], waiter: SyncWaiter) {
        if scheduler.locked { return waiter.tell(.refused("locked: nothing is sent until \(unlockHint)")) }
        if configuration.settings.gatewayURL == nil { return waiter.tell(.refused("no gateway is set; run: healthspool gateway set https://HOST/PATH")) }
        if let reason = configError ?? stoppedReason {
            // A manual sync is a user asking to try again: clear a stop and retry once.
            if configError == nil { stoppedReason = nil } else { return waiter.tell(.refused(reason)) }
        }
        var types = requested.map(DataType.canonicalName)
        if types.isEmpty { types = queuedTypes() }
        // Only what goes to the gateway: a local-only type (positions, routes) is never sent, so a
        // waiter for it would never be answered.
        types = types.filter { configuration.settings.isSent($0) }
        if types.isEmpty { return waiter.tell(.done([])) }
        waiter.remaining = Set(types)
        waiters.append(waiter)
        perform(scheduler.manual(types))
    }

    /// Feeds job results and progress to waiting clients; answers those that are complete.
    func finishWaiters(result r: SyncJobResult? = nil) {
        if let r {
            for waiter in waiters where waiter.remaining.contains(r.type) && r.started.millis >= waiter.registered {
                waiter.remaining.remove(r.type)
                waiter.results.append(r)
                waiter.tell(.finished(r))
            }
        }
        waiters.removeAll { waiter in
            guard waiter.remaining.isEmpty else { return false }
            waiter.tell(.done(waiter.results))
            return true
        }
    }

    /// Tells the waiting clients how far the jobs in flight are.
    func tellWaitersInFlight() {
        guard !waiters.isEmpty else { return }
        let sent = progress.values.reduce(0, +)
        for waiter in waiters { waiter.tell(.inFlight(sent)) }
    }
}
