import HealthJournal
import HealthSpoolDaemon
import Synchronization

/// The Undo each save and delete offers (instead of "are you sure?"): what undoes the change
/// (`JournalUndo`), kept for its session under a random token that the confirmation's Undo
/// button posts back. An offer lasts `lifetimeMillis` (far more than the 10 s a person needs
/// to see the banner and tap) and is used once; at most `perSession` are kept a session (the
/// oldest forgotten first), and `sessions` sessions (the one whose last offer is oldest is
/// forgotten first).
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
    private struct SessionOffers {
        var offers: [(token: String, kept: Kept)] = []
        /// When the session last made an offer (a counter): the one longest ago is forgotten first.
        var lastOffer: UInt64 = 0
    }

    private struct State {
        var sessions: [String: SessionOffers] = [:]
        var tick: UInt64 = 0
    }

    private let state = Mutex(State())

    init(perSession: Int = 32, sessions: Int = 32) {
        self.perSession = perSession
        self.sessions = sessions
    }

    /// Keeps `undo` for `session`; returns the token its button posts.
    func offer(_ undo: JournalUndo, session: String, back: String, now: Int64) -> String {
        let token = RandomBytes.token(16)
        state.withLock { s in
            s.tick += 1
            if s.sessions[session] == nil, s.sessions.count >= sessions,
               let oldest = s.sessions.min(by: { $0.value.lastOffer < $1.value.lastOffer })?.key {
                s.sessions.removeValue(forKey: oldest)
            }
            var kept = s.sessions[session] ?? SessionOffers()
            kept.offers = kept.offers.filter { $0.kept.expires > now }
            kept.offers.append((token, Kept(offer: Offer(undo: undo, back: back), expires: now + Self.lifetimeMillis)))
            if kept.offers.count > perSession { kept.offers.removeFirst(kept.offers.count - perSession) }
            kept.lastOffer = s.tick
            s.sessions[session] = kept
        }
        return token
    }

    /// The offer under `token` for `session`, once: nil when it was used, has expired, or never was.
    func take(_ token: String, session: String, now: Int64) -> Offer? {
        state.withLock { s in
            guard let i = s.sessions[session]?.offers.firstIndex(where: { $0.token == token }) else { return nil }
            let kept = s.sessions[session]!.offers.remove(at: i).kept
            return kept.expires > now ? kept.offer : nil
        }
    }

    /// Forgets a session's offers (log out).
    func end(session: String) { _ = state.withLock { $0.sessions.removeValue(forKey: session) } }

    /// How many offers are kept, over all sessions (for tests).
    var count: Int { state.withLock { $0.sessions.values.reduce(0) { $0 + $1.offers.count } } }

    /// Whether `text` looks like a token this log makes (hex), so a page may put it in a form.
    static func isToken(_ text: String) -> Bool { text.count == 32 && text.allSatisfy(\.isHexDigit) }
}
