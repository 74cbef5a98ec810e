import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// The scrape: the counters and the store's figures as Prometheus families, and as text.
extension DaemonMetrics {
    /// The figures read from the store at a scrape (so they survive restarts).
    struct StoreFigures {
        var queued: [String: Int] = [:]
        var synced: [String: Int] = [:]
        var parked: [String: Int] = [:]
        var lastSuccess: Timestamp?
        /// Per source and type, the newest sample and the last arrival (issue 43).
        var freshness: [SourceFreshness] = []
    }

    /// Every metric, as exposition text. Blocks on SQLite: call it off the cooperative pool
    /// (the async `text()` does).
    public func textNow() -> String {
        PrometheusText.render(families(store: readStore()))
    }

    /// Every metric, as exposition text, read on a queue of its own.
    public func text() async -> String {
        await withCheckedContinuation { continuation in
            DaemonMetrics.queue.async { continuation.resume(returning: self.textNow()) }
        }
    }

    /// Where scrapes read the store: one at a time, never on the cooperative pool.
    static let queue = DispatchQueue(label: "healthspool.metrics")

    /// The store's figures, or nil when it cannot be read now (the store's gauges are left out
    /// of that scrape; the next one opens it again).
    func readStore() -> StoreFigures? {
        reader.withLock { (store: inout SampleStore?) -> StoreFigures? in
            do {
                if store == nil, FileSystem.exists(storePath) { store = try SampleStore(path: storePath) }
                guard let s = store else { return nil }
                return try s.snapshot { () throws(StoreError) in
                    StoreFigures(queued: try s.queuedCounts(), synced: try s.syncedCounts(), parked: try s.deadLetterCounts(),
                                 lastSuccess: try s.lastSuccessfulSync().map { Timestamp(millis: $0.started.millis + $0.durationMillis) },
                                 freshness: try s.freshness())
                }
            } catch {
                store = nil
                return nil
            }
        }
    }

    /// The families, in a fixed order: the store's gauges (when read), then the counters.
    func families(store: StoreFigures?) -> [MetricFamily] {
        let c = counters.withLock { $0 }
        var out: [MetricFamily] = [
            .labelled("healthspool_build_info", .gauge, "healthspool's version; always 1.", label: "version", [HealthSpoolVersion.current: 1]),
            .single("healthspool_start_time_seconds", .gauge, "When the daemon started, in seconds since the Unix epoch.",
                    Double(started.millis) / 1000),
        ]
        if let s = store {
            let types = Set(s.queued.keys).union(s.synced.keys).union(s.parked.keys)
            func byType(_ counts: [String: Int]) -> [String: Double] {
                Dictionary(uniqueKeysWithValues: types.map { ($0, Double(counts[$0] ?? 0)) })
            }
            let stored = [s.queued, s.synced, s.parked].reduce(0) { $0 + $1.values.reduce(0, +) }
            out += [
                .single("healthspool_samples_stored", .gauge, "Samples in the store: queued, synced and dead letters.", Double(stored)),
                .labelled("healthspool_samples_queued", .gauge, "Samples waiting to be sent, by type.", label: "type", byType(s.queued)),
                .single("healthspool_samples_synced", .gauge, "Samples in the store that the gateway accepted (pruned ones are not counted).",
                        Double(s.synced.values.reduce(0, +))),
                .labelled("healthspool_dead_letters", .gauge, "Samples the gateway rejected, parked as dead letters (healthspool dead-letters), by type.",
                          label: "type", byType(s.parked)),
                .single("healthspool_sync_last_success_timestamp_seconds", .gauge,
                        "When the last successful sync attempt ended, in seconds since the Unix epoch; 0 when none succeeded yet.",
                        s.lastSuccess.map { Double($0.millis) / 1000 } ?? 0),
                MetricFamily(name: "healthspool_source_last_sample_timestamp_seconds",
                             help: "Start of the newest sample each source delivered of each type, in seconds since the Unix epoch.", kind: .gauge,
                             samples: s.freshness.map { .init(labels: [.init("source", $0.source), .init("type", $0.type)], value: Double($0.newestMillis) / 1000) }),
                .single("healthspool_sources_quiet", .gauge,
                        "Sources and types that delivered regularly and have sent nothing for longer than their usual gap (at least 2 days).",
                        Double(QuietSources.quiet(s.freshness, now: now().millis).count)),
            ]
        }
        out += [
            .labelled("healthspool_imports_total", .counter, "Spool files imported since the daemon started, by outcome.", label: "outcome", c.imports),
            .labelled("healthspool_sync_attempts_total", .counter, "Sync attempts since the daemon started, by outcome (as healthspool history shows them).",
                      label: "outcome", c.syncAttempts),
            .single("healthspool_samples_sent_total", .counter, "Samples the gateway accepted since the daemon started.", c.sent),
            .single("healthspool_samples_parked_total", .counter, "Samples the gateway rejected and that were parked as dead letters since the daemon started.", c.parked),
        ]
        if let up = c.gatewayUp {
            out.append(.single("healthspool_gateway_up", .gauge, "1 when the last sync job got the gateway's answer, 0 when it failed (unreachable, refused, an error status).",
                               up ? 1 : 0))
        }
        out.append(c.requests.family("healthspool_gateway_request_duration_seconds",
                                     help: "Time from sending a request to the gateway until its answer or failure."))
        out.append(.single("healthspool_watchdog_keepalives_total", .counter,
                           "Keep-alives sent to systemd's watchdog since the daemon started (0 when the unit asks for none).",
                           Double(c.watchdog?.keepAlives ?? 0)))
        if let up = c.ingestUp {
            out.append(.single("healthspool_ingest_up", .gauge, "1 when the ingest endpoint listens, 0 when it cannot (healthspool status says why).", up ? 1 : 0))
        }
        if !c.ingestRefused.isEmpty {
            out.append(.labelled("healthspool_ingest_connections_refused_total", .counter,
                                 "Connections the ingest endpoint turned away before they showed the token since the daemon started, by reason (address_limit, handshake_budget, full, evicted, handshake, request).",
                                 label: "reason", c.ingestRefused))
        }
        return out
    }
}
