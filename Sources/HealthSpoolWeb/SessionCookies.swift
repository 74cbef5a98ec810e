/// What a request's `Cookie` header holds for the journal (issue 39): a browser keeps cookies by
/// host, not by port, so a page of another user's on the same loopback address at another port
/// can set cookies that then come with every request here: many large ones (a cookie bomb), or
/// `hs_session` cookies of its own (cookie tossing). The journal sets one cookie, `hs_session`;
/// this finds every value of it among whatever else came, and names the rest (foreign).
struct SessionCookies: Equatable {
    /// The session cookie's name.
    static let name = "hs_session"
    /// At most this many `hs_session` values are looked at (a browser sends one a path).
    static let maximumSessions = 16
    /// At most this many foreign names are kept (a browser keeps about 180 cookies a host).
    static let maximumForeign = 256

    /// The `hs_session` values, in the order they came (a browser sends the cookie of the
    /// longest path first; several when another page set one for a deeper path).
    private(set) var sessions: [String] = []
    /// The names of the other cookies, each once, in the order they came, when a name is one a
    /// `Set-Cookie` can carry back (an RFC 6265 token).
    private(set) var foreign: [String] = []
    /// How many cookies came in all, and their bytes.
    private(set) var count = 0
    private(set) var bytes = 0

    /// `headers`: the values of the request's `Cookie` header fields (a browser sends one).
    init(_ headers: [String]) {
        var seen = Set<String>()
        for header in headers {
            bytes += header.utf8.count
            for part in header.split(separator: ";") {
                let pair = String(part).trimmingSpaces
                guard !pair.isEmpty else { continue }
                count += 1
                let name = String(pair.prefix { $0 != "=" }).trimmingSpaces
                let value = pair.contains("=") ? String(pair.drop { $0 != "=" }.dropFirst()).trimmingSpaces : ""
                if name == Self.name {
                    if sessions.count < Self.maximumSessions, !value.isEmpty { sessions.append(Self.unquoted(value)) }
                } else if foreign.count < Self.maximumForeign, Self.isToken(name), seen.insert(name).inserted {
                    foreign.append(name)
                }
            }
        }
    }

    /// A cookie value in double quotes (RFC 6265 allows them) without them.
    static func unquoted(_ v: String) -> String {
        v.count >= 2 && v.hasPrefix("\"") && v.hasSuffix("\"") ? String(v.dropFirst().dropLast()) : v
    }

    /// Whether `name` is an RFC 6265 cookie name (an HTTP token), so a `Set-Cookie` may name it.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 4096 && name.utf8.allSatisfy { b in
            b > 0x20 && b < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(b)
        }
    }

    /// The `Set-Cookie` values that expire the foreign cookies on `host` (an IP address: both
    /// the host-only cookie and one set with `Domain=`), at path `/`: the ones a page of this
    /// address can name. A cookie set for a deeper path stays.
    func expiring(host: String) -> [String] {
        foreign.flatMap { ["\($0)=; Path=/; Max-Age=0", "\($0)=; Path=/; Domain=\(host); Max-Age=0"] }
    }
}
