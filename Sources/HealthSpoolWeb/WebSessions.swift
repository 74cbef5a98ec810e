import HealthSpoolCore
import HealthSpoolLinux
import Synchronization

/// Logged-in browser sessions, in memory (a daemon restart logs everyone out: run `healthspool
/// ui` again), and the login links already used, also in `usedLinksFile` (0600) until they
/// expire: a link used once does not open a session again after a restart.
final class WebSessions: Sendable {
    /// One session: its id (the cookie) and the CSRF token its forms carry.
    struct Session: Sendable {
        var id: String
        var csrf: String
        var expiresMillis: Int64
    }

    /// How long a session lasts.
    static let lifetimeMillis: Int64 = 12 * 3_600_000

    private struct State {
        var sessions: [String: Session] = [:]
        var usedNonces: [String: Int64] = [:]
        /// The foreign session cookies already logged (each is logged once).
        var reported: Set<String> = []
    }
    /// At most this many foreign session cookies are remembered as logged.
    static let maximumReported = 256
    private let state = Mutex(State())
    /// Where used links are kept across restarts (one `nonce expiry-millis` line each); nil: in
    /// memory only.
    let usedLinksFile: String?

    init(usedLinksFile: String? = nil, now: Timestamp = DaemonClock.now()) {
        self.usedLinksFile = usedLinksFile
        guard let usedLinksFile, let text = try? FileSystem.readText(usedLinksFile) else { return }
        var used: [String: Int64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let expires = Int64(parts[1]), expires > now.millis else { continue }
            used[String(parts[0])] = expires
        }
        state.withLock { $0.usedNonces = used }
    }

    /// Opens a session for a valid, unused login link; nil otherwise. The link's nonce is kept
    /// until it expires, so the same link never opens a second session.
    func redeem(_ link: LoginLink, secret: [UInt8], now: Timestamp) -> Session? {
        guard link.isValid(secret: secret, now: now) else { return nil }
        return state.withLock { s in
            s.usedNonces = s.usedNonces.filter { $0.value > now.millis }
            s.sessions = s.sessions.filter { $0.value.expiresMillis > now.millis }
            guard s.usedNonces[link.nonce] == nil else { return nil }
            s.usedNonces[link.nonce] = link.expiresMillis
            // Written before the session opens: a link is never good twice, restart or not.
            if let usedLinksFile {
                let text = s.usedNonces.map { "\($0.key) \($0.value)\n" }.joined()
                guard (try? FileSystem.writeAtomically(usedLinksFile, Array(text.utf8), mode: 0o600)) != nil else { return nil }
            }
            let session = Session(id: Self.signed(RandomBytes.token(), secret: secret), csrf: RandomBytes.token(),
                                  expiresMillis: now.millis + Self.lifetimeMillis)
            s.sessions[session.id] = session
            return session
        }
    }

    /// The live session with this cookie value.
    func session(_ id: String, now: Timestamp) -> Session? {
        state.withLock { s in
            guard let session = s.sessions[id], session.expiresMillis > now.millis else { return nil }
            return session
        }
    }

    /// Ends a session (log out).
    func end(_ id: String) { _ = state.withLock { $0.sessions.removeValue(forKey: id) } }

    /// A session's cookie value: a random token and its HMAC under the web secret
    /// (`token.mac`). Another user's program can read the cookie (a browser sends it to every
    /// port of the address) and set one of the same name (cookie tossing), but cannot make a
    /// value of its own that passes `isSigned`: so a session that ended (expired, logged out,
    /// the daemon restarted) is told apart from a cookie this journal never set.
    static func signed(_ token: String, secret: [UInt8]) -> String {
        token + "." + Hex.encode(HMAC.sha256(key: secret, message: Array("session|\(token)".utf8)))
    }

    /// Whether `value` is a cookie value this journal set (`signed`), live or not.
    static func isSigned(_ value: String, secret: [UInt8]) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit) else { return false }
        return HMAC.constantTimeEqual(Array(signed(String(parts[0]), secret: secret).utf8), Array(value.utf8))
    }

    /// True the first time `value` (a foreign session cookie) is reported, false after: it is
    /// logged once, however many pages it comes with.
    func firstReport(of value: String) -> Bool {
        state.withLock { s in
            if s.reported.count >= Self.maximumReported { s.reported.removeAll() }
            return s.reported.insert(value).inserted
        }
    }
}
