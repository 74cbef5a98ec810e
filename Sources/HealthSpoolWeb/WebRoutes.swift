import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird

/// The routes: the login link and logout here, the pages and their forms as one `RouteCollection`
/// per area (`PageRoutes`, `SettingsRoutes`, `SyncRoutes`, `JournalRoutes`, `JournalFormRoutes`,
/// `EditRoutes`, `DayRoutes`, `ImportRoutes`, `ReportRoutes`, and `DoseEdits` and `SymptomEdits`
/// beside their handlers), and a page borrowing a store connection (a form post: `FormPosts`).
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
    /// sync coordinator, which "Sync now" calls (nil: no daemon). Throws a `WebTemplateError`
    /// when the embedded templates cannot be loaded (`WebTemplates`).
    init(configuration: CurrentConfiguration, address: String, port: Int, secret: [UInt8], usedLinksFile: String? = nil,
         stores: StorePool? = nil, manualSync: ManualSync? = nil) throws {
        // The templates first: one that is missing or does not parse stops the start here.
        _ = try WebTemplates.embedded.get()
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
    /// What the server keeps for each session: its forms' one-time tokens, the Undo each save
    /// and delete offers, the messages the pages show after an action.
    let memory = SessionMemory()

    /// The configuration in effect.
    func context() -> Configuration { configuration.value }

    /// `peers`: whose each connection is (the server's connection guard keeps it); nil only for
    /// the route tests' in-process client.
    func router(peers: WebPeers? = nil) -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: RequestGuard(address: address, port: port, sessions: sessions, secret: secret, metricsToken: metricsToken, peers: peers))
        router.add(middleware: NoticeRedirects(memory: memory))
        if let metrics { MetricsRoute.add(to: router, metrics: metrics) }
        WebAssets.add(to: router)
        router.get("/login") { request, _ in self.login(request) }
        router.post("/logout") { request, context in
            if let id = context.session?.id { sessions.end(id); memory.end(session: id) }
            var r = Page.plain(status: .ok, title: "Logged out", text: "You are logged out. To come back, open Health journal from your applications menu.")
            r.headers[.setCookie] = "hs_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
            return r
        }
        for routes in [PageRoutes(web: self).collection, SettingsRoutes(web: self).collection, SyncRoutes(web: self).collection,
                       JournalRoutes(web: self).collection, JournalFormRoutes(web: self).collection, EditRoutes(web: self).collection,
                       DayRoutes(web: self).collection, ImportRoutes(web: self).collection, ReportRoutes(web: self).collection,
                       DoseEdits.routes(self), SymptomEdits.routes(self)] {
            router.addRoutes(routes)
        }
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
    /// (`SessionMemory.held`): the only message a page shows.
    func pageQuery(_ request: Request, _ context: WebContext) -> Form {
        var query = Form(request.uri.query ?? "")
        if let id = query[SessionMemory.field], let session = context.session?.id {
            query.notice = memory.held(id, session: session, now: DaemonClock.now().millis)
        }
        return query
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
