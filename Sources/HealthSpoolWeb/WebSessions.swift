import HealthSpoolCore
import Synchronization

/// Logged-in browser sessions and the login links already used, in memory: a daemon restart
/// logs everyone out (run `healthspool ui` again).
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
    }
    private let state = Mutex(State())

    /// Opens a session for a valid, unused login link; nil otherwise. The link's nonce is kept
    /// until it expires, so the same link never opens a second session.
    func redeem(_ link: LoginLink, secret: [UInt8], now: Timestamp) -> Session? {
        guard link.isValid(secret: secret, now: now) else { return nil }
        return state.withLock { s in
            s.usedNonces = s.usedNonces.filter { $0.value > now.millis }
            s.sessions = s.sessions.filter { $0.value.expiresMillis > now.millis }
            guard s.usedNonces[link.nonce] == nil else { return nil }
            s.usedNonces[link.nonce] = link.expiresMillis
            let session = Session(id: RandomBytes.token(), csrf: RandomBytes.token(), expiresMillis: now.millis + Self.lifetimeMillis)
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
}
