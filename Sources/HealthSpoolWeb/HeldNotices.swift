import Synchronization

/// The messages pages show after an action ("Saved: Headache, moderate, at 18:07."), held by
/// the server for the session that made them (issue 39). The redirect after a post names one by
/// an unguessable id (`?notice=<id>`); the page looks the id up for the request's session, so an
/// address made by anyone else (another user's page navigating here with `?ok=Your data was
/// lost`, or a notice id of another session) shows nothing: no text of a page's message ever
/// comes from its address. A notice lasts `lifetimeMillis` (a reload shows it again, as the
/// page after the action); at most `perSession` are kept a session and `sessions` sessions
/// (the oldest forgotten first).
final class HeldNotices: Sendable {
    /// One message: a confirmation (`ok`, with the Undo offer's token and the emergency line
    /// under it when asked) or a refusal (`error`).
    struct Held: Sendable, Equatable {
        var ok: String?
        var error: String?
        var undo: String?
        var emergency = false
    }

    /// The query fields a route writes into a redirect for the notice of the page it lands on;
    /// they are taken out of the address and held (`address`), never shown from it.
    static let fields: Set<String> = ["ok", "error", "undo", "emergency"]
    /// The field that names a held notice.
    static let field = "notice"

    static let lifetimeMillis: Int64 = 10 * 60 * 1000
    let perSession: Int
    let sessions: Int

    private struct Kept {
        var id: String
        var held: Held
        var expires: Int64
    }
    private struct State {
        var sessions: [String: (notices: [Kept], last: UInt64)] = [:]
        var tick: UInt64 = 0
    }
    private let state = Mutex(State())

    init(perSession: Int = 32, sessions: Int = 32) {
        self.perSession = perSession
        self.sessions = sessions
    }

    /// Keeps `held` for `session`; returns the id its page's address carries.
    func hold(_ held: Held, session: String, now: Int64) -> String {
        let id = RandomBytes.token(16)
        state.withLock { s in
            s.tick += 1
            if s.sessions[session] == nil, s.sessions.count >= sessions,
               let oldest = s.sessions.min(by: { $0.value.last < $1.value.last })?.key {
                s.sessions.removeValue(forKey: oldest)
            }
            var kept = s.sessions[session]?.notices.filter { $0.expires > now } ?? []
            kept.append(Kept(id: id, held: held, expires: now + Self.lifetimeMillis))
            if kept.count > perSession { kept.removeFirst(kept.count - perSession) }
            s.sessions[session] = (kept, s.tick)
        }
        return id
    }

    /// The notice `id` names for `session`; nil when it is another session's, has expired, or never was.
    func held(_ id: String, session: String, now: Int64) -> Held? {
        state.withLock { s in
            s.sessions[session]?.notices.first { $0.id == id && $0.expires > now }?.held
        }
    }

    /// Forgets a session's notices (log out).
    func end(session: String) { _ = state.withLock { $0.sessions.removeValue(forKey: session) } }

    /// `location` (a redirect's address, as a route wrote it: `/notes?ok=Note%20saved.&undo=…`)
    /// with its notice fields taken out and held for `session`, named by `?notice=<id>` instead;
    /// without a session, the fields are dropped. An address without them is returned as it is.
    func address(_ location: String, session: String?, now: Int64) -> String {
        guard let q = location.firstIndex(of: "?") else { return location }
        let path = String(location[..<q])
        let query = Form(String(location[location.index(after: q)...]))
        guard query.pairs.contains(where: { Self.fields.contains($0.0) }) else { return location }
        var kept = query.pairs.filter { !Self.fields.contains($0.0) && $0.0 != Self.field }.map { Page.percentEncode($0.0) + "=" + Page.percentEncode($0.1) }
        let held = Held(ok: query["ok"], error: query["error"], undo: query["undo"].flatMap { UndoLog.isToken($0) ? $0 : nil },
                        emergency: query["emergency"] == "1")
        if let session, !session.isEmpty, held.ok != nil || held.error != nil {
            kept.append(Self.field + "=" + hold(held, session: session, now: now))
        }
        return kept.isEmpty ? path : path + "?" + kept.joined(separator: "&")
    }
}
