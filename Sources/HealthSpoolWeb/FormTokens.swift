import Synchronization

/// One-time form tokens (a double tap never makes two entries): every form a page renders
/// carries a token of its session; the first post with it is carried out and its answer (a
/// redirect) kept, and a second post with the same token gets that same answer without doing
/// anything again. Tokens are random (`RandomBytes.token`), belong to one session, and are
/// bounded: at most `perSession` a session (the oldest are forgotten first) and `sessions`
/// sessions (the one used longest ago is forgotten first).
final class FormTokens: Sendable {
    /// The answer a post with a token got: kept to answer a repeat the same way.
    struct Answer: Sendable, Equatable {
        var status: Int
        var location: String?
    }

    /// What a post with a token may do.
    enum Claim: Sendable, Equatable {
        /// First use: carry the post out, then `finish` (or `release` when it was refused).
        case fresh
        /// The same form again: answer as the first post was answered.
        case repeated(Answer)
        /// The first post is still being carried out: ask again shortly.
        case inProgress
        /// Not a token of this session (forgotten, or never issued).
        case unknown
    }

    private enum Use { case issued, running, answered(Answer) }

    private struct SessionTokens {
        var uses: [String: Use] = [:]
        /// Tokens in the order they were issued: the first is forgotten first.
        var order: [String] = []
        var lastUsed: UInt64 = 0
    }

    private struct State {
        var sessions: [String: SessionTokens] = [:]
        var tick: UInt64 = 0
    }

    let perSession: Int
    let sessions: Int
    private let state = Mutex(State())

    init(perSession: Int = 256, sessions: Int = 32) {
        self.perSession = perSession
        self.sessions = sessions
    }

    /// A new token for a form of `session`.
    func issue(session: String) -> String {
        let token = RandomBytes.token(16)
        state.withLock { s in
            s.tick += 1
            if s.sessions[session] == nil, s.sessions.count >= sessions,
               let oldest = s.sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                s.sessions.removeValue(forKey: oldest)
            }
            var t = s.sessions[session] ?? SessionTokens()
            t.lastUsed = s.tick
            t.uses[token] = .issued
            t.order.append(token)
            if t.order.count > perSession {
                for old in t.order.prefix(t.order.count - perSession) { t.uses.removeValue(forKey: old) }
                t.order.removeFirst(t.order.count - perSession)
            }
            s.sessions[session] = t
        }
        return token
    }

    /// Claims `token` for a post of `session`.
    func claim(_ token: String, session: String) -> Claim {
        state.withLock { s in
            s.tick += 1
            let tick = s.tick
            guard let use = s.sessions[session]?.uses[token] else { return .unknown }
            s.sessions[session]?.lastUsed = tick
            switch use {
            case .issued:
                s.sessions[session]?.uses[token] = .running
                return .fresh
            case .running: return .inProgress
            case .answered(let answer): return .repeated(answer)
            }
        }
    }

    /// The post with `token` was carried out and answered `answer`: a repeat gets the same.
    func finish(_ token: String, session: String, answer: Answer) {
        state.withLock { s in
            if s.sessions[session]?.uses[token] != nil { s.sessions[session]?.uses[token] = .answered(answer) }
        }
    }

    /// The post with `token` changed nothing (refused, or it failed): the form may be sent again.
    func release(_ token: String, session: String) {
        state.withLock { s in
            if s.sessions[session]?.uses[token] != nil { s.sessions[session]?.uses[token] = .issued }
        }
    }

    /// Forgets a session's tokens (log out).
    func end(session: String) { _ = state.withLock { $0.sessions.removeValue(forKey: session) } }

    /// How many tokens are kept, over all sessions (for tests).
    var count: Int { state.withLock { $0.sessions.values.reduce(0) { $0 + $1.uses.count } } }
}
