import Hummingbird

/// The settings page and its forms (each writes the user's configuration file).
struct SettingsRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.get("/settings") { r, c in try await web.page(r, c) { ctx, q, csrf in SettingsPage.render(ctx, query: q, csrf: csrf) } }
        routes.post("/settings/types") { r, c in try await web.action(r, c, SettingsPage.saveTypes) }
        routes.post("/settings/glucose") { r, c in try await web.action(r, c, SettingsPage.saveGlucoseUnit) }
        routes.post("/settings/frequency") { r, c in try await web.action(r, c, SettingsPage.saveFrequency) }
        routes.post("/settings/lock") { r, c in try await web.action(r, c, SettingsPage.setLock) }
        routes.post("/settings/after-import") { r, c in try await web.action(r, c, SettingsPage.saveAfterImport) }
        routes.post("/settings/gateway/test") { r, c in try await web.action(r, c, SettingsPage.testGateway) }
        return routes
    }
}
