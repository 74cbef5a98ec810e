import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The doctor's summary and its style sheets: the same as the file's, and the printed pages' header
/// (its script is an embedded asset, `Assets/report.js`).
struct ReportRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.get("/report") { r, c in try await web.page(r, c) { _, store, q, csrf in try ReportPage.render(store: store, query: q, csrf: csrf) } }
        // The FHIR file of the period shown: a download, made on a reader's thread.
        routes.get("/report/fhir") { r, c in
            let query = web.pageQuery(r, c)
            let current = web.configuration
            let file = try await web.store.run(.read) { lease in
                let ctx = current.value
                return try ReportPage.fhirFile(ctx, store: try lease.uses(ctx), query: query)
            }
            var response = Page.respond(.ok, file.text, type: "application/fhir+json; charset=utf-8")
            response.headers[.contentDisposition] = "attachment; filename=\"\(file.name)\""
            return response
        }
        routes.post("/report/name") { r, c in try await web.action(r, c, ReportPage.saveName) }
        routes.get("/static/report.css") { _, _ in
            var r = Page.respond(.ok, ReportFile.css, type: "text/css; charset=utf-8")
            r.headers[.cacheControl] = "max-age=3600"
            return r
        }
        // The printed pages' header: the period from the query, read as dates (nothing else of
        // the query gets in), and the name from the settings (`report.name`), CSS-escaped.
        routes.get("/report/page.css") { r, _ in
            let q = Form(r.uri.query ?? "")
            guard let from = q["from"].flatMap(CivilDate.init(parsing:)), let to = q["to"].flatMap(CivilDate.init(parsing:)) else {
                return Page.respond(.badRequest, "", type: "text/css; charset=utf-8")
            }
            let name = web.configuration.value.settings.reportName.flatMap { $0.trimmingSpaces.isEmpty ? nil : $0.trimmingSpaces }
            return Page.respond(.ok, ReportPrintHeader.css(from: from, to: to, name: name), type: "text/css; charset=utf-8")
        }
        return routes
    }
}
