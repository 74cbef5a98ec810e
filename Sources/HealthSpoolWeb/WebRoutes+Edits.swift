import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

extension WebRoutes {
    /// Correcting the journal in the browser: change and delete symptoms, lifestyle entries,
    /// doses, notes and measurements, and Undo after every save and delete.
    func addEditPages(_ router: Router<WebContext>) {
        router.post("/undo") { r, c in try await undo(r, c) }

        router.get("/symptoms/:id/edit") { r, c in
            let id = c.parameters.get("id") ?? ""
            return try await page(r, c) { _, store, q, keys in try SymptomEdits.page(store: store, id: id, query: q, keys: keys) }
        }
        router.post("/symptoms/edit") { r, c in try await undoable(r, c, SymptomEdits.save) }
        router.post("/symptoms/delete") { r, c in try await undoable(r, c, SymptomEdits.delete) }

        router.get("/lifestyle/:id/edit") { r, c in
            let id = c.parameters.get("id") ?? ""
            return try await page(r, c) { _, store, q, keys in try LifestyleEdits.page(store: store, id: id, query: q, keys: keys) }
        }
        router.post("/lifestyle/edit") { r, c in try await undoable(r, c, LifestyleEdits.save) }
        router.post("/lifestyle/delete") { r, c in try await undoable(r, c, LifestyleEdits.delete) }

        router.post("/doses/edit") { r, c in try await undoable(r, c, DoseEdits.retime) }
        router.post("/doses/delete") { r, c in try await undoable(r, c, DoseEdits.delete) }

        router.get("/notes/:id/edit") { r, c in
            let id = c.parameters.get("id") ?? ""
            return try await page(r, c) { _, store, q, keys in try NoteEdits.page(store: store, id: id, query: q, keys: keys) }
        }
        router.post("/notes/edit") { r, c in try await undoable(r, c, NoteEdits.save) }
        router.post("/notes/delete") { r, c in try await undoable(r, c, NoteEdits.delete) }

        router.get("/measure/:key/edit") { r, c in
            let key = c.parameters.get("key") ?? ""
            return try await page(r, c) { ctx, store, q, keys in try MeasureEdits.page(ctx, store: store, key: key, query: q, keys: keys) }
        }
        router.post("/measure/edit") { r, c in try await undoable(r, c, MeasureEdits.save) }
        router.post("/measure/delete") { r, c in try await undoable(r, c, MeasureEdits.delete) }
    }

    /// A form post whose change can be undone: `perform` answers with its redirect and what
    /// undoes the change; the offer is kept for the session (`UndoLog`) and its token added to
    /// the redirect, so the page it lands on shows an Undo button in the confirmation. Carried
    /// out once per one-time token, as every form (`action`).
    func undoable(_ request: Request, _ context: WebContext,
                  _ perform: @escaping @Sendable (Configuration, LentStore, Form, FormKeys) throws -> (Response, JournalUndo?)) async throws -> Response {
        let session = context.session?.id ?? ""
        let undos = self.undos
        return try await action(request, context, borrowing: { ctx, store, form, keys in
            let (response, undo) = try perform(ctx, store, form, keys)
            guard let undo, !session.isEmpty, (300..<400).contains(response.status.code),
                  let location = response.headers[.location] else { return response }
            let back = String(location.prefix { $0 != "?" })
            let token = undos.offer(undo, session: session, back: back, now: DaemonClock.now().millis)
            var r = response
            r.headers[.location] = location + (location.contains("?") ? "&" : "?") + "undo=" + token
            return r
        })
    }

    /// `undoable` for a post that answers with a redirect and an undo alone.
    func undoable(_ request: Request, _ context: WebContext,
                  _ perform: @escaping @Sendable (Configuration, LentStore, Form) throws -> (Response, JournalUndo?)) async throws -> Response {
        try await undoable(request, context) { ctx, store, form, _ in try perform(ctx, store, form) }
    }

    /// The Undo button: takes the session's offer back and carries it out; lands on the page
    /// the change had landed on.
    func undo(_ request: Request, _ context: WebContext) async throws -> Response {
        let session = context.session?.id ?? ""
        let undos = self.undos
        return try await action(request, context, borrowing: { _, store, form, _ in
            let fallback = Edits.back(form, else: "/")
            guard let token = form["undo"], let offer = undos.take(token, session: session, now: DaemonClock.now().millis) else {
                return Page.redirect(fallback, error: "There is nothing to undo here any more: it was undone already, or it is too long ago.")
            }
            do {
                return Page.redirect(offer.back, ok: try store.apply(offer.undo))
            } catch {
                return Page.redirect(offer.back, error: "It could not be undone: \(WebJournal.message(error))")
            }
        })
    }
}

/// What the change and delete forms share: where they land, and the Change and Delete
/// buttons beside each entry of a list.
enum Edits {
    /// The page a form came from (`back`) when it is a path of this site, else `fallback`.
    static func back(_ form: Form, else fallback: String) -> String {
        guard let b = form["back"], isLocalPath(b) else { return fallback }
        return b
    }

    /// A path on this site ("/day/2026-11-26"): no scheme, no other host, no query.
    static func isLocalPath(_ s: String) -> Bool {
        s.hasPrefix("/") && !s.hasPrefix("//") && s.count <= 200
            && s.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "/-_.".unicodeScalars.contains($0) }
    }

    /// A local date and time typed in two fields ("2026-11-26", "09:15") as an instant in the
    /// journal's zone; nil when both are as they were (`was`, the entry's local "YYYY-MM-DDTHH:MM").
    /// The time may be typed as a person types it ("0900", "9am"; `TimeOfDay(typed:)`).
    static func time(date: String?, time: String?, was: String, _ journal: HealthJournal, now: Timestamp) throws -> Timestamp? {
        let d = (date ?? "").trimmingSpaces, t = (time ?? "").trimmingSpaces
        let clock = t.isEmpty ? String(was.dropFirst(11).prefix(5)) : TimeOfDay(typed: t)?.description
        guard let clock, CivilDate(parsing: d.isEmpty ? String(was.prefix(10)) : d) != nil else {
            throw Problem("Type the date as year-month-day (2026-11-26) and the time as hours:minutes (09:15).")
        }
        let text = (d.isEmpty ? String(was.prefix(10)) : d) + "T" + clock
        guard text != String(was.prefix(16)) else { return nil }
        return try journal.time(text, now: now)
    }

    /// A refusal in words for the page.
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
