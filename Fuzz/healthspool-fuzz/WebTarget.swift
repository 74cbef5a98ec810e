#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
@testable import HealthSpoolWeb
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

/// The local web interface's request handling: a request made from the input goes through the
/// real router (the guard, then the page or form handler, on a store in a scratch home), without
/// a socket. The input's first byte picks who asks: a stranger (no session), a logged-in browser,
/// or a logged-in browser that also sends its `Origin` and CSRF token; the rest is
/// `METHOD PATH\nHeader: value\n…\n\nbody`.
/// Properties:
/// - a request without the session cookie never gets a page: 401, 403 or 404, nothing else;
/// - a request whose `Host` is not the loopback name gets no page either;
/// - a logged-in request never makes the server fail (no 5xx): bad input is the user's mistake,
///   answered with a message;
/// - every answer of a route carries the Content-Security-Policy;
/// - a form body or query decodes to pairs that, encoded again, decode to the same pairs.
/// The sync routes (a live event stream, a background run) and the gateway test (a network
/// connection) are left out.
enum WebTarget {
    static let target = FuzzTarget(name: "web", summary: "web interface: guard, forms, cookies, pages (real router, no socket)") { data in
        guard let first = data.first else { return }
        let text = String(decoding: data.dropFirst(), as: UTF8.self)
        checkFormRoundTrip(text)
        guard let request = ParsedRequest(text) else { return }
        if request.path.hasPrefix("/sync") || request.path.hasPrefix("/settings/gateway") { return }
        let web = Scratch.shared
        let who = first % 3
        var fields = HTTPFields()
        for (name, value) in request.headers {
            guard let n = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: n, value: value))
        }
        let authority = request.host ?? "\(Scratch.address):\(Scratch.port)"
        if who >= 1 {
            let cookie = "hs_session=\(web.session.id)"
            fields[.cookie] = fields[.cookie].map { "\($0); \(cookie)" } ?? cookie
        }
        if who == 2 {
            fields[.origin] = "http://" + authority
            fields[HTTPField.Name("X-CSRF-Token")!] = web.session.csrf
        }
        let head = HTTPRequest(method: request.method, scheme: "http", authority: authority, path: request.path, headerFields: fields)
        let status = web.respond(Request(head: head, body: .init(buffer: ByteBuffer(bytes: Array(request.body.utf8)))))
        let described = "\(request.method) \(request.path) as \(["a stranger", "a logged-in browser", "a logged-in form"][Int(who)]), Host \(authority)"
        let allowedHost = authority.lowercased() == "\(Scratch.address):\(Scratch.port)"
        let open = RequestGuard.open.contains(Request(head: head, body: .init(buffer: ByteBuffer())).uri.path)
        if who == 0, !open, status.code != 401, status.code != 403, status.code != 404 {
            propertyFailed("web: \(described) was answered \(status.code) without a session")
        }
        if !allowedHost, status.code != 403, status.code != 404 {
            propertyFailed("web: \(described) was answered \(status.code) for a foreign Host")
        }
        if who > 0, status.code >= 500 {
            propertyFailed("web: \(described) made the server fail: \(status.code) (body \(request.body.prefix(300)))")
        }
        if status.code != 404, !status.hasCSP {
            propertyFailed("web: \(described) was answered \(status.code) without a Content-Security-Policy")
        }
    }

    /// Form(text) → encode → Form gives the same pairs.
    static func checkFormRoundTrip(_ text: String) {
        let form = Form(text)
        let encoded = form.pairs.map { Page.percentEncode($0.0) + "=" + Page.percentEncode($0.1) }.joined(separator: "&")
        let again = Form(encoded)
        guard again.pairs.count == form.pairs.count, zip(again.pairs, form.pairs).allSatisfy({ $0.0 == $1.0 && $0.1 == $1.1 }) else {
            propertyFailed("web: form \(text.prefix(300).debugDescription) decodes to \(form.pairs), encoded \(encoded.prefix(300)), which decodes to \(again.pairs)")
        }
    }

    /// The status of an answer and whether it carries the policy header.
    struct Answer { var code: Int; var hasCSP: Bool }

    /// A request as the input spells it.
    struct ParsedRequest {
        var method: HTTPRequest.Method
        var path: String
        var host: String?
        var headers: [(String, String)] = []
        var body: String

        init?(_ text: String) {
            let (headPart, body) = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
                .map(String.init).splitPair()
            var lines = headPart.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard !lines.isEmpty else { return nil }
            let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 1).map(String.init)
            guard requestLine.count == 2, let method = HTTPRequest.Method(requestLine[0]), requestLine[1].hasPrefix("/") else { return nil }
            self.method = method
            path = requestLine[1]
            self.body = body
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = String(line[..<colon]), value = String(line[line.index(after: colon)...]).trimmingSpaces
                if name.lowercased() == "host" { host = value } else { headers.append((name, value)) }
            }
        }
    }

    /// The router, its session and a scratch home, made once for the whole run.
    /// `@unchecked Sendable`: libFuzzer calls the target from one thread only, and the channel and
    /// responder are used from that thread and the one task it waits for at a time.
    final class Scratch: @unchecked Sendable {
        static let port = 8765
        static let address = "127.1.0.0"
        static let shared = Scratch()
        let responder: RouterResponder<WebContext>
        let session: WebSessions.Session
        let channel = EmbeddedChannel()
        let home: String

        private init() {
            var template = Array("/tmp/healthspool-fuzz-web.XXXXXX".utf8CString)
            guard let dir = mkdtemp(&template) else { propertyFailed("web: mkdtemp: errno \(errno)") }
            home = String(cString: dir)
            mkdir(home + "/run", 0o700)
            let env = ["HOME": home, "XDG_RUNTIME_DIR": home + "/run", "TZ": "UTC", "PATH": "/usr/bin:/bin"]
            let secret = Array(repeating: UInt8(7), count: 32)
            guard let configuration = try? Configuration(environment: env) else { propertyFailed("web: no configuration for a fresh home") }
            guard let routes = try? WebRoutes(configuration: CurrentConfiguration(configuration), address: Self.address, port: Self.port,
                                              secret: secret) else {
                propertyFailed("web: the routes' store pool could not start")
            }
            responder = routes.router().buildResponder()
            let now = DaemonClock.now()
            guard let s = routes.sessions.redeem(LoginLink.make(secret: secret, now: now), secret: secret, now: now) else {
                propertyFailed("web: a fresh login link did not open a session")
            }
            session = s
        }

        /// The answer's status, waiting for the async responder on this thread.
        func respond(_ request: Request) -> Answer {
            let result = Mutex<Answer?>(nil)
            let done = OneShotSignal()
            nonisolated(unsafe) let context = WebContext(source: ApplicationRequestContextSource(channel: channel, logger: Logger(label: "fuzz-web")))
            let responder = self.responder
            Task {
                let answer: Answer
                do {
                    let r = try await responder.respond(to: request, context: context)
                    answer = Answer(code: r.status.code, hasCSP: r.headers[.contentSecurityPolicy] != nil)
                } catch let error as HTTPResponseError {
                    answer = Answer(code: error.status.code, hasCSP: false)
                } catch {
                    answer = Answer(code: 500, hasCSP: false)
                }
                result.withLock { $0 = answer }
                done.signal()
            }
            done.wait()
            return result.withLock { $0! }
        }
    }
}

/// A one-shot wait for a task to finish, on a plain semaphore (the fuzzer's thread is not a
/// cooperative one).
final class OneShotSignal: @unchecked Sendable {
    // Invariant: `sem` is initialised once in init and only used through sem_post/sem_wait.
    private var sem = sem_t()
    init() { sem_init(&sem, 0, 0) }
    deinit { sem_destroy(&sem) }
    func signal() { sem_post(&sem) }
    func wait() { while sem_wait(&sem) != 0 && errno == EINTR {} }
}

private extension Array where Element == String {
    /// The two halves of a one-split: (first, rest or "").
    func splitPair() -> (String, String) { (self.first ?? "", count > 1 ? self[1] : "") }
}
