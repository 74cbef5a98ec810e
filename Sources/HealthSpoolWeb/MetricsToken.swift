import HealthSpoolCore

/// The bearer token a Prometheus scrape of `/metrics` must send: 32 random bytes as 64 hex
/// digits in `<state dir>/metrics.token`, mode 0600, made when the web interface first starts.
/// Only its owner can read it: copy it where Prometheus reads it (`bearer_token_file`).
public enum MetricsToken {
    /// The token file's path in a state directory.
    public static func path(stateDir: String) -> String { stateDir + "/metrics.token" }

    /// The token (hex), creating the file when absent.
    public static func loadOrCreate(stateDir: String) throws -> String {
        let file = path(stateDir: stateDir)
        return Hex.encode(try WebSecret.loadOrCreate(file: file, name: "metrics token", remedy: "restart the daemon to make a new one"))
    }

    /// Whether an `Authorization` header carries the token (`Bearer <token>`), compared in
    /// constant time.
    static func accepts(_ authorization: String?, token: String) -> Bool {
        guard let value = authorization, value.count > 7, value.prefix(7).lowercased() == "bearer " else { return false }
        let presented = String(value.dropFirst(7)).trimmingSpaces
        return HMAC.constantTimeEqual(Array(presented.utf8), Array(token.utf8))
    }
}
