import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

extension WebRoutes {
    /// The day view, the calendar and import by drop.
    func addDayPages(_ router: Router<WebContext>) {
        // Today, without a date in the address; every link on it carries one.
        router.get("/day") { r, c in
            try await page(r, c) { ctx, store, q, csrf in
                let today = WallClock.localDay(of: DaemonClock.now(), zone: ctx.currentZone())
                return try DayPage.render(ctx, store: store, date: today, query: q, csrf: csrf)
            }
        }
        router.get("/day/:date") { r, c in
            guard let text = c.coreContext.parameters.get("date"), let date = CivilDate(parsing: text) else {
                return Page.plain(status: .notFound, title: "No such day", text: "Days are written YYYY-MM-DD, for example /day/2026-11-22.",
                                  back: ("/day", "Go to today"))
            }
            return try await page(r, c) { ctx, store, q, csrf in try DayPage.render(ctx, store: store, date: date, query: q, csrf: csrf) }
        }
        router.get("/import") { r, c in
            try await page(r, c) { ctx, _, csrf in ImportPage.render(csrf: csrf, maxMB: ctx.settings.webUploadMaxMB, spoolPath: ctx.spool.path) }
        }
        router.post("/import") { request, _ in
            let ctx = configuration.value
            let raw = Form.decode(Substring(request.headers[.init("X-File-Name")!] ?? "upload"))
            do {
                let name = try await ImportUpload.receive(request, name: raw, spoolDir: ctx.spool.path,
                                                          maxBytes: Int64(ctx.settings.webUploadMaxMB) << 20)
                return Page.respond(.created, JSONValue.object([("file", .string(name))]).text, type: "application/json")
            } catch let refusal as ImportUpload.Refusal {
                return Page.respond(refusal.status, JSONValue.object([("error", .string(refusal.message))]).text, type: "application/json")
            }
        }
        router.get("/import/status") { request, _ in
            let name = Form(request.uri.query ?? "")["file"] ?? ""
            let current = configuration
            let json = try await store.run(.read) { lease in
                try ImportUpload.status(of: ImportUpload.storedName(name), context: current.value, liveStatus: lease.liveStatus) { try lease.uses($0) }
            }
            return Page.respond(.ok, json.text, type: "application/json")
        }
    }
}
