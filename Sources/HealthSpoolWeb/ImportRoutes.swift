import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Import by drop: the page, the upload into the spool and the upload's progress.
struct ImportRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.get("/import") { r, c in
            try await web.page(r, c) { ctx, _, csrf in ImportPage.render(csrf: csrf, maxMB: ctx.settings.webUploadMaxMB, spoolPath: ctx.spool.path) }
        }
        routes.post("/import") { request, _ in
            let ctx = web.configuration.value
            let raw = Form.decode(Substring(request.headers[.init("X-File-Name")!] ?? "upload"))
            do {
                let name = try await ImportUpload.receive(request, name: raw, spoolDir: ctx.spool.path,
                                                          maxBytes: Int64(ctx.settings.webUploadMaxMB) << 20)
                return Page.respond(.created, JSONValue.object([("file", .string(name))]).text, type: "application/json")
            } catch let refusal as ImportUpload.Refusal {
                return Page.respond(refusal.status, JSONValue.object([("error", .string(refusal.message))]).text, type: "application/json")
            }
        }
        routes.get("/import/status") { request, _ in
            let name = Form(request.uri.query ?? "")["file"] ?? ""
            let current = web.configuration
            let json = try await web.store.run(.read) { lease in
                try ImportUpload.status(of: ImportUpload.storedName(name), context: current.value, liveStatus: lease.liveStatus) { try lease.uses($0) }
            }
            return Page.respond(.ok, json.text, type: "application/json")
        }
        return routes
    }
}
