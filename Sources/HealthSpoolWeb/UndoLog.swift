@preconcurrency import HealthSpoolDaemon
import Synchronization

/// The Undo each save and delete offers (instead of "are you sure?"): what undoes the change
/// (`JournalUndo`), kept for its session under a random token that the confirmation's Undo
/// button posts back. An offer lasts `lifetimeMillis` (far more than the 10 s a person needs
/// to see the banner and tap) and is used once; at most `perSession` are kept a session (the
/// oldest forgotten first), and `sessions` sessions (another session's offers are forgotten to
/// make room).
final class UndoLog: Sendable {
    /// An offer taken back: what undoes the change, and the page the change landed on.
    struct Offer: Sendable {
        var undo: JournalUndo
        var back: String
    }

    private struct Kept: Sendable {
        var offer: Offer
        var expires: Int64
    }

    static let lifetimeMillis: Int64 = 10 * 60 * 1000
    let perSession: Int
    let sessions: Int
    private let state = Mutex([String: [(token: String, kept: Kept)]]())

    init(perSession: Int = 32, sessions: Int = 32) {
        self.perSession = perSession
        self.sessions = sessions
    }

    /// Keeps `undo` for `session`; returns the token its button posts.
    func offer(_ undo: JournalUndo, session: String, back: String, now: Int64) -> String {
        let token = RandomBytes.token(16)
        state.withLock { s in
            if s[session] == nil, s.count >= sessions, let first = s.keys.first { s.removeValue(forKey: first) }
            var list = s[session, default: []].filter { $0.kept.expires > now }
            list.append((token, Kept(offer: Offer(undo: undo, back: back), expires: now + Self.lifetimeMillis)))
            if list.count > perSession { list.removeFirst(list.count - perSession) }
            s[session] = list
        }
        return token
    }

    /// The offer under `token` for `session`, once: nil when it was used, has expired, or never was.
    func take(_ token: String, session: String, now: Int64) -> Offer? {
        state.withLock { s in
            guard var list = s[session], let i = list.firstIndex(where: { $0.token == token }) else { return nil }
            let kept = list.remove(at: i).kept
            s[session] = list
            return kept.expires > now ? kept.offer : nil
        }
    }

    /// Forgets a session's offers (log out).
    func end(session: String) { _ = state.withLock { $0.removeValue(forKey: session) } }

    /// How many offers are kept, over all sessions (for tests).
    var count: Int { state.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Whether `text` looks like a token this log makes (hex), so a page may put it in a form.
    static func isToken(_ text: String) -> Bool { text.count == 32 && text.allSatisfy(\.isHexDigit) }
}
