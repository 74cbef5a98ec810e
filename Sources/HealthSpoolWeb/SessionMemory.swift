import HealthJournal
import HealthSpoolDaemon
import Synchronization

/// What the server keeps for each session between its requests, bounded alike:
/// - **one-time form tokens** (a double tap never makes two entries): every form a page renders
///   carries a token of its session (`FormKeys`); the first post with it is carried out and its
///   answer (a redirect) kept, and a second post with the same token gets that same answer
///   without doing anything again (`issue`, `claim`, `finish`, `release`);
/// - **the Undo offers** each save and delete makes (instead of "are you sure?"): what undoes the
///   change (`JournalUndo`), under a token the confirmation's Undo button posts back, used once
///   (`offer`, `take`);
/// - **the messages pages show after an action** ("Saved: Headache, moderate, at 18:07.",
///   issue 39): the redirect after a post names one by an id (`?notice=<id>`), which the page
///   looks up for the request's session, so an address made by anyone else (another user's page
///   navigating here with `?ok=Your data was lost`, or a notice id of another session) shows
///   nothing: no text of a page's message ever comes from its address (`address`, `held`).
///
/// Tokens and ids are random (`RandomBytes.token`) and belong to one session. An offer and a
/// notice last `lifetimeMillis` (far more than the 10 s a person needs to see the banner and
/// tap; a reload shows the notice again). A session keeps at most `Limits.tokens` tokens,
/// `offers` offers and `notices` notices (the oldest forgotten first); at most `sessions`
/// sessions are kept (the one used longest ago is forgotten first, all it kept with it), and
/// logging out forgets a session's all at once (`end`).
final class SessionMemory: Sendable {
    /// How much is kept.
    struct Limits: Sendable {
        var tokens = 256
        var offers = 32
        var notices = 32
        var sessions = 32
    }

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

    /// An Undo offer taken back: what undoes the change, and the page the change landed on.
    struct Offer: Sendable {
        var undo: JournalUndo
        var back: String
    }

    /// A page's message: a confirmation (`ok`, with the Undo offer's token and the emergency line
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
    /// How long an Undo offer and a notice are kept.
    static let lifetimeMillis: Int64 = 10 * 60 * 1000

    let limits: Limits

    private enum Use { case issued, running, answered(Answer) }

    /// One session's: its tokens (in the order issued: the first is forgotten first), offers and
    /// notices (oldest first), and when it was last used (a counter).
    private struct Kept {
        var tokens: [String: Use] = [:]
        var order: [String] = []
        var offers: [(token: String, offer: Offer, expires: Int64)] = []
        var notices: [(id: String, held: Held, expires: Int64)] = []
        var lastUsed: UInt64 = 0
    }

    private struct State {
        var sessions: [String: Kept] = [:]
        var tick: UInt64 = 0
    }

    private let state = Mutex(State())

    init(_ limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Changes `session`'s memory (made when it has none, the session used longest ago forgotten
    /// to make room), and marks it used now.
    private func using<T>(_ session: String, _ body: (inout Kept) -> T) -> T {
        state.withLock { s in
            s.tick += 1
            if s.sessions[session] == nil, s.sessions.count >= limits.sessions,
               let oldest = s.sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                s.sessions.removeValue(forKey: oldest)
            }
            var kept = s.sessions[session] ?? Kept()
            kept.lastUsed = s.tick
            let result = body(&kept)
            s.sessions[session] = kept
            return result
        }
    }

    /// Forgets all a session kept (log out).
    func end(session: String) { _ = state.withLock { $0.sessions.removeValue(forKey: session) } }

    // MARK: One-time form tokens

    /// A new token for a form of `session`.
    func issue(session: String) -> String {
        let token = RandomBytes.token(16)
        using(session) { k in
            k.tokens[token] = .issued
            k.order.append(token)
            if k.order.count > limits.tokens {
                for old in k.order.prefix(k.order.count - limits.tokens) { k.tokens.removeValue(forKey: old) }
                k.order.removeFirst(k.order.count - limits.tokens)
            }
        }
        return token
    }

    /// Claims `token` for a post of `session`.
    func claim(_ token: String, session: String) -> Claim {
        state.withLock { s in
            s.tick += 1
            let tick = s.tick
            guard let use = s.sessions[session]?.tokens[token] else { return .unknown }
            s.sessions[session]?.lastUsed = tick
            switch use {
            case .issued:
                s.sessions[session]?.tokens[token] = .running
                return .fresh
            case .running: return .inProgress
            case .answered(let answer): return .repeated(answer)
            }
        }
    }

    /// The post with `token` was carried out and answered `answer`: a repeat gets the same.
    func finish(_ token: String, session: String, answer: Answer) {
        state.withLock { s in
            if s.sessions[session]?.tokens[token] != nil { s.sessions[session]?.tokens[token] = .answered(answer) }
        }
    }

    /// The post with `token` changed nothing (refused, or it failed): the form may be sent again.
    func release(_ token: String, session: String) {
        state.withLock { s in
            if s.sessions[session]?.tokens[token] != nil { s.sessions[session]?.tokens[token] = .issued }
        }
    }

    // MARK: Undo offers

    /// Keeps `undo` for `session`; returns the token its button posts.
    func offer(_ undo: JournalUndo, session: String, back: String, now: Int64) -> String {
        let token = RandomBytes.token(16)
        using(session) { k in
            k.offers = k.offers.filter { $0.expires > now }
            k.offers.append((token, Offer(undo: undo, back: back), now + Self.lifetimeMillis))
            if k.offers.count > limits.offers { k.offers.removeFirst(k.offers.count - limits.offers) }
        }
        return token
    }

    /// The offer under `token` for `session`, once: nil when it was used, has expired, or never was.
    func take(_ token: String, session: String, now: Int64) -> Offer? {
        state.withLock { s in
            guard let i = s.sessions[session]?.offers.firstIndex(where: { $0.token == token }) else { return nil }
            let kept = s.sessions[session]!.offers.remove(at: i)
            return kept.expires > now ? kept.offer : nil
        }
    }

    /// Whether `text` looks like a token this memory makes (hex), so a page may put it in a form.
    static func isToken(_ text: String) -> Bool { text.count == 32 && text.allSatisfy(\.isHexDigit) }

    // MARK: Notices

    /// Keeps `held` for `session`; returns the id its page's address carries.
    func hold(_ held: Held, session: String, now: Int64) -> String {
        let id = RandomBytes.token(16)
        using(session) { k in
            k.notices = k.notices.filter { $0.expires > now }
            k.notices.append((id, held, now + Self.lifetimeMillis))
            if k.notices.count > limits.notices { k.notices.removeFirst(k.notices.count - limits.notices) }
        }
        return id
    }

    /// The notice `id` names for `session`; nil when it is another session's, has expired, or never was.
    func held(_ id: String, session: String, now: Int64) -> Held? {
        state.withLock { s in
            s.sessions[session]?.notices.first { $0.id == id && $0.expires > now }?.held
        }
    }

    /// `location` (a redirect's address, as a route wrote it: `/notes?ok=Note%20saved.&undo=…`)
    /// with its notice fields taken out and held for `session`, named by `?notice=<id>` instead;
    /// without a session, the fields are dropped. An address without them is returned as it is.
    func address(_ location: String, session: String?, now: Int64) -> String {
        guard let q = location.firstIndex(of: "?") else { return location }
        let path = String(location[..<q])
        let query = Form(String(location[location.index(after: q)...]))
        guard query.pairs.contains(where: { Self.fields.contains($0.0) }) else { return location }
        var kept = query.pairs.filter { !Self.fields.contains($0.0) && $0.0 != Self.field }.map { Page.percentEncode($0.0) + "=" + Page.percentEncode($0.1) }
        let held = Held(ok: query["ok"], error: query["error"], undo: query["undo"].flatMap { Self.isToken($0) ? $0 : nil },
                        emergency: query["emergency"] == "1")
        if let session, !session.isEmpty, held.ok != nil || held.error != nil {
            kept.append(Self.field + "=" + hold(held, session: session, now: now))
        }
        return kept.isEmpty ? path : path + "?" + kept.joined(separator: "&")
    }

    /// How many tokens, offers and notices are kept, over all sessions (for tests).
    var count: (tokens: Int, offers: Int, notices: Int) {
        state.withLock { s in
            s.sessions.values.reduce((0, 0, 0)) { ($0.0 + $1.tokens.count, $0.1 + $1.offers.count, $0.2 + $1.notices.count) }
        }
    }
}

/// What a page's forms carry: the session's CSRF token, and a fresh one-time token per form
/// (`SessionMemory.issue`).
struct FormKeys: Sendable {
    /// The form field that carries the one-time token.
    static let field = "once"

    var csrf: String
    /// Issues a one-time token for one form.
    var issue: @Sendable () -> String

    init(csrf: String, issue: @escaping @Sendable () -> String) {
        self.csrf = csrf
        self.issue = issue
    }
}
