/// Why the ingest endpoint turned a connection away before it showed the token: the label of
/// `healthspool_ingest_connections_refused_total` and a part of the summary logged once a minute.
public enum IngestRefusal: String, CaseIterable, Sendable {
    /// Closed at accept: its address already had `IngestLimits.perPeer` connections, none of
    /// them old enough to be taken back.
    case addressLimit = "address_limit"
    /// Closed at accept: its address started more handshakes than its budget allows
    /// (`IngestLimits.handshakeBurst`, then `handshakesPerSecond`).
    case handshakeBudget = "handshake_budget"
    /// Closed at accept: every slot it may use was taken and none could be taken back.
    case full
    /// Accepted, then shut down to make room for another connection before it showed the token.
    case evicted
    /// Its TLS handshake failed or did not finish in time.
    case handshake
    /// Its handshake finished, but no request with the token came: refused (401, 404, …),
    /// timed out or gone.
    case request

    /// The words of the summary line.
    var words: String {
        switch self {
        case .addressLimit: "over the per-address limit"
        case .handshakeBudget: "over their address's handshake budget"
        case .full: "with no slot free"
        case .evicted: "closed to make room"
        case .handshake: "without a finished TLS handshake"
        case .request: "without a request carrying the token"
        }
    }
}
