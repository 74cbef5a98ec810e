import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird

/// The sending page's "Sync now" and its progress stream (`SyncRun`).
struct SyncRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.get("/sync") { r, c in try await web.page(r, c) { _, store, q, csrf in try SyncPage.render(store: store, query: q, csrf: csrf) } }
        routes.post("/sync") { _, _ in
            let current = web.configuration
            let sync = web.sync
            _ = try await web.store.run(.read) { lease in
                let ctx = current.value
                let uses = try lease.uses(ctx)
                return sync.start(context: ctx) { (try? uses.queuedCounts()) ?? [:] }
            }
            return Response(status: .accepted)
        }
        routes.get("/sync/events") { _, _ in
            let sync = web.sync
            var r = Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                while true {
                    let s = sync.snapshot
                    try await writer.write(ByteBuffer(string: SyncRun.event(s)))
                    if s.done { break }
                    try await TaskThreadPool.sleep(for: .milliseconds(250))
                }
                try await writer.finish(nil)
            })
            r.headers[.cacheControl] = "no-store"
            return r
        }
        return routes
    }
}
