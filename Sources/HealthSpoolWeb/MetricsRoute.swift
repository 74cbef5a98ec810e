import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// `GET /metrics`: the daemon's metrics in the Prometheus text format, for a scrape that sends
/// the metrics token (checked by `RequestGuard`, with the `Host` check every request passes).
enum MetricsRoute {
    static let path = "/metrics"

    static func add(to router: Router<WebContext>, metrics: DaemonMetrics) {
        router.get("/metrics") { _, _ in
            Page.respond(.ok, await metrics.text(), type: PrometheusText.contentType)
        }
    }

    /// The answer to a scrape without the token (`presented: false`) or with a wrong one.
    static func unauthorized(presented: Bool) -> Response {
        var r = Page.respond(.unauthorized, presented
            ? "wrong metrics token: send the one in metrics.token in healthspool's state directory (Authorization: Bearer TOKEN)\n"
            : "metrics need a token: send the one in metrics.token in healthspool's state directory (Authorization: Bearer TOKEN)\n",
            type: "text/plain; charset=utf-8")
        r.headers[.wwwAuthenticate] = presented ? "Bearer realm=\"healthspool\", error=\"invalid_token\"" : "Bearer realm=\"healthspool\""
        return r
    }
}
