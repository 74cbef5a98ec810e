import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird

/// A form post, from its body to its answer: the form read (the one `RequestGuard` read, else
/// the body), decoded into the handler's `Fields` (Hummingbird's `URLEncodedFormDecoder`),
/// carried out once per one-time token on the store writer's thread, and, for a change that can
/// be undone, the Undo offered: the token and the offer are kept for the session
/// (`SessionMemory`), and so is the redirect's message.
extension WebRoutes {
    /// The keys the forms of a page for this request's session carry.
    func keys(_ context: WebContext) -> FormKeys {
        let session = context.session?.id ?? ""
        let memory = self.memory
        return FormKeys(csrf: context.session?.csrf ?? "") { memory.issue(session: session) }
    }

    /// A form post that borrows no connection (the settings'), carried out on the store writer's
    /// thread; answers with a redirect. The configuration is read again after it (a settings
    /// form writes the file), so the page it goes back to shows the change.
    func action(_ request: Request, _ context: WebContext,
                _ perform: @escaping @Sendable (Configuration, Form) throws -> Response) async throws -> Response {
        try await action(request, context) { ctx, form, _ in try perform(ctx, form) }
    }

    /// `action` for a form decoded into its `Fields` (`Form.decode`); a body that does not decode
    /// is refused with a plain page, and the form's one-time token stays usable.
    func action<Fields: Decodable & Sendable>(_ request: Request, _ context: WebContext,
                                              _ perform: @escaping @Sendable (Configuration, Fields) throws -> Response) async throws -> Response {
        try await action(request, context) { ctx, form, _ in
            guard let fields = try? form.decode(Fields.self) else { return Page.unreadableForm }
            return try perform(ctx, fields)
        }
    }

    /// A form post carried out on the store writer's thread (one at a time), once per one-time token (`SessionMemory.claim`): the
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
        // The form the guard read, else the body.
        let form: Form
        if let read = context.form { form = read } else { form = Form(String(buffer: try await request.collectBody(upTo: 1 << 20))) }
        let keys = keys(context)
        let run = { try await perform(form, keys) }
        guard let token = form[FormKeys.field], let session = context.session?.id else { return try await run() }
        var claim = memory.claim(token, session: session)
        // A repeat that arrives while the first post is still being carried out waits for its answer.
        var waited = 0
        while claim == .inProgress, waited < 500 {
            try await TaskThreadPool.sleep(for: .milliseconds(20))
            waited += 1
            claim = memory.claim(token, session: session)
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
            memory.release(token, session: session)
            throw error
        }
        if (300..<400).contains(response.status.code) {
            // The message is held before the answer is kept: the same form sent again lands on the same notice.
            if let location = response.headers[.location] {
                response.headers[.location] = memory.address(location, session: session, now: DaemonClock.now().millis)
            }
            memory.finish(token, session: session, answer: .init(status: response.status.code, location: response.headers[.location]))
        } else {
            memory.release(token, session: session)
        }
        return response
    }

    /// A form post whose change can be undone: `perform` answers with its redirect and what
    /// undoes the change; the offer is kept for the session (`SessionMemory.offer`) and its token added to
    /// the redirect, so the page it lands on shows an Undo button in the confirmation. Carried
    /// out once per one-time token, as every form (`action`).
    func undoable(_ request: Request, _ context: WebContext,
                  _ perform: @escaping @Sendable (Configuration, LentStore, Form, FormKeys) throws -> (Response, JournalUndo?)) async throws -> Response {
        let session = context.session?.id ?? ""
        let memory = self.memory
        return try await action(request, context, borrowing: { ctx, store, form, keys in
            let (response, undo) = try perform(ctx, store, form, keys)
            guard let undo, !session.isEmpty, (300..<400).contains(response.status.code),
                  let location = response.headers[.location] else { return response }
            let back = String(location.prefix { $0 != "?" })
            let token = memory.offer(undo, session: session, back: back, now: DaemonClock.now().millis)
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

    /// `undoable` for a form decoded into its `Fields` that is shown again with its typed values
    /// and field errors (422), which needs the page's form keys.
    func undoable<Fields: Decodable & Sendable>(_ request: Request, _ context: WebContext,
                                                _ perform: @escaping @Sendable (Configuration, LentStore, Fields, FormKeys) throws -> (Response, JournalUndo?))
        async throws -> Response {
        try await undoable(request, context) { ctx, store, form, keys in
            guard let fields = try? form.decode(Fields.self) else { return (Page.unreadableForm, nil) }
            return try perform(ctx, store, fields, keys)
        }
    }

    /// `action(borrowing:)` for a form decoded into its `Fields`; a body that does not decode is
    /// refused with a plain page, and the form's one-time token stays usable.
    func action<Fields: Decodable & Sendable>(_ request: Request, _ context: WebContext,
                                              borrowing perform: @escaping @Sendable (Configuration, LentStore, Fields) throws -> Response)
        async throws -> Response {
        try await action(request, context, borrowing: { ctx, store, form, _ in
            guard let fields = try? form.decode(Fields.self) else { return Page.unreadableForm }
            return try perform(ctx, store, fields)
        })
    }

    /// The Undo button's fields: the offer's token (`undo`) and the page to land on without one.
    struct UndoFields: Decodable, Sendable {
        var undo: String?
        var back: String?
    }

    /// The Undo button: takes the session's offer back and carries it out; lands on the page
    /// the change had landed on.
    func undo(_ request: Request, _ context: WebContext) async throws -> Response {
        let session = context.session?.id ?? ""
        let memory = self.memory
        return try await action(request, context, borrowing: { (_, store, form: UndoFields) in
            let fallback = Page.back(form.back, else: "/")
            guard let token = form.undo, let offer = memory.take(token, session: session, now: DaemonClock.now().millis) else {
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
