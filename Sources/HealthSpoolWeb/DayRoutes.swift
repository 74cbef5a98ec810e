import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The day view and its calendar.
struct DayRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        // Today, without a date in the address; every link on it carries one.
        routes.get("/day") { r, c in
            try await web.page(r, c) { ctx, store, q, csrf in
                let today = WallClock.localDay(of: DaemonClock.now(), zone: ctx.currentZone())
                return try DayPage.render(ctx, store: store, date: today, query: q, csrf: csrf)
            }
        }
        routes.get("/day/:date") { r, c in
            guard let text = c.coreContext.parameters.get("date"), let date = CivilDate(parsing: text) else {
                return Page.plain(status: .notFound, title: "No such day", text: "Days are written YYYY-MM-DD, for example /day/2026-11-22.",
                                  back: ("/day", "Go to today"))
            }
            return try await web.page(r, c) { ctx, store, q, csrf in try DayPage.render(ctx, store: store, date: date, query: q, csrf: csrf) }
        }
        return routes
    }
}
