import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird

/// The routes: the login link, the pages, their forms and the sync progress stream.
struct WebRoutes: Sendable {
    /// The configuration in effect (the daemon's reloads set it; a settings form rereads it).
    let configuration: CurrentConfiguration
    /// The loopback address and port the pages are served at (the only `Host` accepted).
    let address: String
    let port: Int
    let secret: [UInt8]
    /// The daemon's metrics for `/metrics`, and the token a scrape needs.
    var metrics: DaemonMetrics?
    var metricsToken: String?
    let sessions: WebSessions

    /// `usedLinksFile`: where used login links are kept until they expire (nil: memory only);
    /// `stores`: the app's store connections (nil: a pool of its own); `manualSync`: the daemon's
    /// sync coordinator, which "Sync now" calls (nil: no daemon).
    init(configuration: CurrentConfiguration, address: String, port: Int, secret: [UInt8], usedLinksFile: String? = nil,
         stores: StorePool? = nil, manualSync: ManualSync? = nil) throws {
        store = try stores ?? StorePool()
        sync = SyncRun(manual: manualSync)
        self.configuration = configuration
        self.address = address
        self.port = port
        self.secret = secret
        sessions = WebSessions(usedLinksFile: usedLinksFile)
    }
    /// The store connections a request borrows (at most one per request), each on a thread of
    /// its own, never the cooperative pool: pages read on a reader's, form posts are carried out
    /// on the writer's, one at a time.
    let store: StorePool
    let sync: SyncRun
    /// The one-time tokens of the sessions' forms.
    let formTokens = FormTokens()
    /// The Undo each save and delete offers, per session.
    let undos = UndoLog()
    /// The messages the pages show after an action, per session.
    let notices = HeldNotices()

    /// The configuration in effect.
    func context() -> Configuration { configuration.value }

    /// `peers`: whose each connection is (the server's connection guard keeps it); nil only for
    /// the route tests' in-process client.
    func router(peers: WebPeers? = nil) -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: RequestGuard(address: address, port: port, sessions: sessions, secret: secret, metricsToken: metricsToken, peers: peers))
        router.add(middleware: NoticeRedirects(notices: notices))
        if let metrics { MetricsRoute.add(to: router, metrics: metrics) }
        WebAssets.add(to: router)
        router.get("/login") { request, _ in self.login(request) }
        router.post("/logout") { request, context in
            if let id = context.session?.id { sessions.end(id); formTokens.end(session: id); undos.end(session: id); notices.end(session: id) }
            var r = Page.plain(status: .ok, title: "Logged out", text: "You are logged out. To come back, open Health journal from your applications menu.")
            r.headers[.setCookie] = "hs_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
            return r
        }
        addPages(router)
        addJournalPages(router)
        addEditPages(router)
        addFormPages(router)
        addDayPages(router)
        addReportPages(router)
        return router
    }

    /// A page that borrows no connection (settings), rendered on a store reader's thread from
    /// the configuration in effect.
    func page(_ request: Request, _ context: WebContext,
              _ render: @escaping @Sendable (Configuration, Form, FormKeys) throws -> String) async throws -> Response {
        let query = pageQuery(request, context)
        let csrf = keys(context)
        let current = configuration
        let html = try await store.run(.read) { _ in try render(current.value, query, csrf) }
        return Page.respond(.ok, html)
    }

    /// A page rendered on a reader's thread with the one store connection it borrows from the
    /// pool (it opens none of its own), from the current configuration.
    func page(_ request: Request, _ context: WebContext,
              borrowing render: @escaping @Sendable (Configuration, LentStore, Form, FormKeys) throws -> String) async throws -> Response {
        let query = pageQuery(request, context)
        let csrf = keys(context)
        let current = configuration
        let html = try await store.run(.read) { lease in
            let ctx = current.value
            return try render(ctx, try lease.uses(ctx), query, csrf)
        }
        return Page.respond(.ok, html)
    }

    /// A page's query, with the notice its `notice` field names for this request's session
    /// (`HeldNotices`): the only message a page shows.
    func pageQuery(_ request: Request, _ context: WebContext) -> Form {
        var query = Form(request.uri.query ?? "")
        if let id = query[HeldNotices.field], let session = context.session?.id {
            query.notice = notices.held(id, session: session, now: DaemonClock.now().millis)
        }
        return query
    }

    /// The keys the forms of a page for this request's session carry.
    func keys(_ context: WebContext) -> FormKeys {
        let session = context.session?.id ?? ""
        let tokens = formTokens
        return FormKeys(csrf: context.session?.csrf ?? "") { tokens.issue(session: session) }
    }

    /// A form post that borrows no connection (the settings'), carried out on the store writer's
    /// thread; answers with a redirect. The configuration is read again after it (a settings
    /// form writes the file), so the page it goes back to shows the change.
    func action(_ request: Request, _ context: WebContext,
                _ perform: @escaping @Sendable (Configuration, Form) throws -> Response) async throws -> Response {
        try await action(request, context) { ctx, form, _ in try perform(ctx, form) }
    }

    /// A form post carried out on the store writer's thread (one at a time), once per one-time token (`FormTokens`): the
    /// same form posted again (a double tap) gets the first post's redirect and changes nothing.
    /// An answer that is not a redirect (a form shown again with its errors) leaves the token
    /// usable. A post without a token (a script's) is carried out as it comes.
    func action(_ request: Request, _ context: WebContext,
                _ perform: @escaping @Sendable (Configuration, Form, FormKeys) throws -> Response) async throws -> Response {
        let current = configuration
        return try await once(request, context) { form, keys in
            try await store.run(.write) { _ in
                defer { try? current.reread() }
                return try perform(current.value, form, keys)
            }
        }
    }

    /// `action`, carried out with the writer's connection, the one store connection the post
    /// borrows from the pool (it opens none of its own).
    func action(_ request: Request, _ context: WebContext,
                borrowing perform: @escaping @Sendable (Configuration, LentStore, Form, FormKeys) throws -> Response) async throws -> Response {
        let current = configuration
        return try await once(request, context) { form, keys in
            try await store.run(.write) { lease in
                let ctx = current.value
                return try perform(ctx, try lease.uses(ctx), form, keys)
            }
        }
    }

    /// Carries out `perform` with the request's form once per one-time token (see `action`).
    private func once(_ request: Request, _ context: WebContext,
                      _ perform: @escaping @Sendable (Form, FormKeys) async throws -> Response) async throws -> Response {
        var request = request
        let form = try await context.form(of: &request)
        let keys = keys(context)
        let run = { try await perform(form, keys) }
        guard let token = form[FormKeys.field], let session = context.session?.id else { return try await run() }
        var claim = formTokens.claim(token, session: session)
        // A repeat that arrives while the first post is still being carried out waits for its answer.
        var waited = 0
        while claim == .inProgress, waited < 500 {
            try await TaskThreadPool.sleep(for: .milliseconds(20))
            waited += 1
            claim = formTokens.claim(token, session: session)
        }
        switch claim {
        case .fresh: break
        case .repeated(let answer):
            return Response(status: .init(code: answer.status), headers: answer.location.map { [.location: $0] } ?? [:])
        case .inProgress, .unknown:
            return Page.plain(status: .conflict, title: "This form was already sent",
                              text: "This form was sent before, or it is too old. Go back, reload the page and try again.",
                              back: ("/", "Back to your health journal"))
        }
        var response: Response
        do { response = try await run() } catch {
            formTokens.release(token, session: session)
            throw error
        }
        if (300..<400).contains(response.status.code) {
            // The message is held before the answer is kept: the same form sent again lands on the same notice.
            if let location = response.headers[.location] {
                response.headers[.location] = notices.address(location, session: session, now: DaemonClock.now().millis)
            }
            formTokens.finish(token, session: session, answer: .init(status: response.status.code, location: response.headers[.location]))
        } else {
            formTokens.release(token, session: session)
        }
        return response
    }

    func login(_ request: Request) -> Response {
        let query = Form(request.uri.query ?? "")
        guard let token = query["token"], let link = LoginLink(token: token),
              let session = sessions.redeem(link, secret: secret, now: DaemonClock.now()) else {
            return Page.plain(status: .unauthorized, title: "This link has expired",
                              text: "Login links work once and for two minutes. Open Health journal from your applications menu again.")
        }
        var r = Response(status: .seeOther, headers: [.location: "/"])
        // A fresh start: the cookies of this address that the journal did not set go (the ones
        // a page can name: `SessionCookies.expiring`).
        let host = String((request.head.authority ?? address).prefix { $0 != ":" })
        r.headers[values: .setCookie] = ["\(SessionCookies.name)=\(session.id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(WebSessions.lifetimeMillis / 1000)"]
            + SessionCookies(request.headers[values: .cookie]).expiring(host: host)
        return r
    }
}
