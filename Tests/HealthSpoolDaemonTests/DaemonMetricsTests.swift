@testable import HealthSpoolCore
@testable import HealthSpoolDaemon
import HealthSpoolGateway
import Testing

/// The daemon's counters as Prometheus families: what the hooks count and how it is named.
@Suite struct DaemonMetricsTests {
    let metrics = DaemonMetrics(storePath: "/nonexistent/healthspool.db", started: Timestamp(millis: 1_763_800_000_500))

    func value(_ families: [MetricFamily], _ name: String, _ labels: [MetricFamily.Label] = [], suffix: String = "") -> Double? {
        families.first { $0.name == name }?.samples.first { $0.suffix == suffix && $0.labels == labels }?.value
    }

    func job(sent: Int = 0, parked: Int = 0, requests: Int = 1, error: GatewayError? = nil) -> SyncJobResult {
        var r = SyncJobResult(type: "heartRate", trigger: .observer, started: Timestamp(millis: 0), durationMillis: 5)
        r.sent = sent
        r.parked = parked
        r.requests = requests
        r.error = error
        return r
    }

    @Test func everyNameFollowsTheConventionsAndCountersEndInTotal() {
        let store = DaemonMetrics.StoreFigures(queued: ["heartRate": 1], synced: [:], parked: [:], lastSuccess: nil)
        metrics.jobFinished(job(sent: 1))
        for family in metrics.families(store: store) {
            #expect(MetricFamily.isValidName(family.name), "\(family.name)")
            #expect(family.name.hasPrefix("healthspool_"))
            #expect((family.kind == .counter) == family.name.hasSuffix("_total"), "\(family.name)")
            for sample in family.samples { #expect(sample.labels.allSatisfy { MetricFamily.isValidName($0.name, allowColon: false) }) }
        }
    }

    @Test func jobsCountSentAndParkedAndSayWhetherTheGatewayAnswered() {
        #expect(value(metrics.families(store: nil), "healthspool_gateway_up") == nil)   // unknown before the first job
        metrics.jobFinished(job(sent: 10, parked: 2))
        metrics.jobFinished(job(requests: 0))   // nothing queued: says nothing about the gateway
        var f = metrics.families(store: nil)
        #expect(value(f, "healthspool_samples_sent_total") == 10)
        #expect(value(f, "healthspool_samples_parked_total") == 2)
        #expect(value(f, "healthspool_gateway_up") == 1)
        metrics.jobFinished(job(error: .transport(code: 7, message: "refused", url: "https://gw")))
        f = metrics.families(store: nil)
        #expect(value(f, "healthspool_gateway_up") == 0)
    }

    @Test func importsAndAttemptsAreCountedByOutcomeEveryOutcomeShownFromZero() {
        metrics.imported(ImportSummary(file: "a.json", outcome: .imported))
        metrics.imported(ImportSummary(file: "b.json", outcome: .failed))
        metrics.attemptFinished(SyncOutcome.success.rawValue)
        let f = metrics.families(store: nil)
        #expect(value(f, "healthspool_imports_total", [.init("outcome", "imported")]) == 1)
        #expect(value(f, "healthspool_imports_total", [.init("outcome", "failed")]) == 1)
        #expect(value(f, "healthspool_imports_total", [.init("outcome", "waiting")]) == 0)
        #expect(value(f, "healthspool_sync_attempts_total", [.init("outcome", "success")]) == 1)
        #expect(value(f, "healthspool_sync_attempts_total", [.init("outcome", "failed")]) == 0)
    }

    @Test func requestDurationsGoToTheHistogram() {
        metrics.requestFinished(seconds: 0.02)
        metrics.requestFinished(seconds: 3)
        let f = metrics.families(store: nil)
        let name = "healthspool_gateway_request_duration_seconds"
        #expect(value(f, name, suffix: "_count") == 2)
        #expect(value(f, name, [.init("le", "0.025")], suffix: "_bucket") == 1)
        #expect(value(f, name, [.init("le", "5")], suffix: "_bucket") == 2)
        #expect(abs((value(f, name, suffix: "_sum") ?? 0) - 3.02) < 1e-9)
    }

    @Test func storeFiguresGiveStoredQueuedByTypeSyncedDeadLettersAndLastSuccess() {
        let store = DaemonMetrics.StoreFigures(queued: ["heartRate": 3], synced: ["heartRate": 5, "stepCount": 7],
                                               parked: ["stepCount": 1], lastSuccess: Timestamp(millis: 1_763_800_001_250))
        let f = metrics.families(store: store)
        #expect(value(f, "healthspool_samples_stored") == 16)
        #expect(value(f, "healthspool_samples_queued", [.init("type", "heartRate")]) == 3)
        #expect(value(f, "healthspool_samples_queued", [.init("type", "stepCount")]) == 0)   // known type: 0, not absent
        #expect(value(f, "healthspool_samples_synced") == 12)
        #expect(value(f, "healthspool_dead_letters", [.init("type", "stepCount")]) == 1)
        #expect(value(f, "healthspool_sync_last_success_timestamp_seconds") == 1_763_800_001.25)
        #expect(value(f, "healthspool_build_info", [.init("version", HealthSpoolVersion.current)]) == 1)
        #expect(value(f, "healthspool_start_time_seconds") == 1_763_800_000.5)
    }
}
