import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

extension WebRoutes {
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

    /// `undoable` for a form decoded into its `Fields` (Hummingbird's `URLEncodedFormDecoder`,
    /// `Form.decode`). A body that does not decode (a script's, never the page's form) is
    /// refused with a plain page, and the form's one-time token stays usable.
    func undoable<Fields: Decodable & Sendable>(_ request: Request, _ context: WebContext,
                                                _ perform: @escaping @Sendable (Configuration, LentStore, Fields) throws -> (Response, JournalUndo?)) async throws -> Response {
        try await undoable(request, context) { ctx, store, form, _ in
            guard let fields = try? form.decode(Fields.self) else { return (Page.unreadableForm, nil) }
            return try perform(ctx, store, fields)
        }
    }

    /// The Undo button: takes the session's offer back and carries it out; lands on the page
    /// the change had landed on.
    func undo(_ request: Request, _ context: WebContext) async throws -> Response {
        let session = context.session?.id ?? ""
        let undos = self.undos
        return try await action(request, context, borrowing: { _, store, form, _ in
            let fallback = Edits.back(form["back"], else: "/")
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
