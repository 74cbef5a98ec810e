import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif

extension SyncCoordinator {
    /// Handles one control request on the coordination queue.
    func handleControl(_ request: JSONValue, client: Int32) {
        let command = request["command"]?.stringValue ?? ""
        switch command {
        case "ping":
            var w = JSONWriter()
            w.raw("{\"event\":\"pong\",\"pid\":"); w.number(Int64(getpid())); w.raw("}")
            let waiter = SyncWaiter(fd: client, types: [], registered: 0)
            waiter.send(w)
            waiter.close()
        case "observe":
            // `healthspool import` stored samples outside the spool: observe their types.
            let types = request["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            observe(types)
            let waiter = SyncWaiter(fd: client, types: [], registered: 0)
            var w = JSONWriter()
            w.raw("{\"event\":\"ok\"}")
            waiter.send(w)
            waiter.close()
        case "sync":
            let waiter = SyncWaiter(fd: client, types: [], registered: clock.now().millis)
            func fail(_ message: String) {
                var w = JSONWriter()
                w.raw("{\"event\":\"error\",\"message\":"); w.string(message); w.raw("}")
                waiter.send(w)
                waiter.close()
            }
            if scheduler.locked { return fail("locked: nothing is sent until \(unlockHint)") }
            if configuration.settings.gatewayURL == nil { return fail("no gateway is set; run: healthspool gateway set https://HOST/PATH") }
            if let reason = configError ?? stoppedReason {
                // A manual sync is a user asking to try again: clear a stop and retry once.
                if configError == nil { stoppedReason = nil } else { return fail(reason) }
            }
            var types = request["types"]?.arrayValue?.compactMap(\.stringValue).map(DataType.canonicalName) ?? []
            if types.isEmpty { types = queuedTypes() }
            // Only what goes to the gateway: a local-only type (positions, routes) is never sent, so a
            // waiter for it would never be answered.
            types = types.filter { configuration.settings.isSent($0) }
            if types.isEmpty {
                var w = JSONWriter()
                w.raw("{\"event\":\"done\",\"outcome\":\"success\",\"sent\":0,\"results\":[]}")
                waiter.send(w)
                waiter.close()
                return
            }
            waiter.remaining = Set(types)
            waiters.append(waiter)
            perform(scheduler.manual(types))
        default:
            let waiter = SyncWaiter(fd: client, types: [], registered: 0)
            var w = JSONWriter()
            w.raw("{\"event\":\"error\",\"message\":"); w.string("unknown command '\(command)'"); w.raw("}")
            waiter.send(w)
            waiter.close()
        }
    }

    /// Feeds job results and progress to waiting clients; answers those that are complete.
    func finishWaiters(result r: SyncJobResult? = nil) {
        if let r {
            for waiter in waiters where waiter.remaining.contains(r.type) && r.started.millis >= waiter.registered {
                waiter.remaining.remove(r.type)
                waiter.results.append(r)
                var w = JSONWriter()
                w.raw("{\"event\":\"progress\",\"type\":"); w.string(r.type)
                w.raw(",\"sent\":"); w.number(Int64(r.sent)); w.raw(",\"outcome\":"); w.string(r.outcome.rawValue); w.raw("}")
                waiter.send(w)
            }
        }
        waiters.removeAll { waiter in
            guard waiter.remaining.isEmpty else { return false }
            var w = JSONWriter(capacity: 512)
            let sent = waiter.results.reduce(0) { $0 + $1.sent }
            w.raw("{\"event\":\"done\",\"outcome\":"); w.string(waiter.results.outcome.rawValue)
            w.raw(",\"sent\":"); w.number(Int64(sent))
            w.raw(",\"results\":[")
            for (n, r) in waiter.results.enumerated() {
                if n > 0 { w.raw(",") }
                w.raw("{\"type\":"); w.string(r.type)
                w.raw(",\"outcome\":"); w.string(r.outcome.rawValue)
                w.raw(",\"sent\":"); w.number(Int64(r.sent))
                w.raw(",\"parked\":"); w.number(Int64(r.parked))
                w.raw(",\"durationMs\":"); w.number(r.durationMillis)
                w.raw(",\"error\":"); if let e = r.error { w.string(e.description) } else { w.raw("null") }
                w.raw("}")
            }
            w.raw("]}")
            waiter.send(w)
            waiter.close()
            return true
        }
    }
}
