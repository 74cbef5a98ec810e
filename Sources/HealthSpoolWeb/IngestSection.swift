import HealthSpoolConfig
import HealthSpoolDaemon

/// The settings page's "Push from the phone" section: where the phone pushes and the
/// certificate it pins while the endpoint serves; otherwise, plainly, that it does not, why
/// (another user's program holding its port), and when it is tried again.
struct IngestSection: Sendable {
    let url: String
    let serving: Bool
    let starting: Bool
    let fingerprint: String?
    /// Why it does not serve; nil while it serves or starts.
    let problem: String?
    let retrySeconds: Int?

    /// The section for `ctx`; nil when the endpoint is off (`ingest.listen` unset). The page is
    /// served by the running daemon, whose word on the endpoint is read.
    init?(_ ctx: Configuration) {
        guard let url = ctx.ingestURL else { return nil }
        let (state, live) = IngestStatus.current(ctx, daemonRunning: true)
        self.url = url
        serving = state == "listening"
        starting = state == "starting"
        fingerprint = serving ? ctx.ingestFingerprint() : nil
        problem = serving || starting ? nil : live?.problem ?? "unknown"
        retrySeconds = live?.retrySeconds
    }
}
