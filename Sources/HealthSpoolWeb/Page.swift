import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Builds the HTML of a page not yet on templates in Swift, text escaped where a call says
/// `text`; the frame around it is `layout.mustache` (`PageFrame`).
struct Page {
    var title: String
    var path: String
    /// The session's CSRF token and one-time form tokens.
    var keys: FormKeys
    var csrf: String { keys.csrf }
    private(set) var html = ""

    init(title: String, path: String, csrf: FormKeys) {
        self.title = title
        self.path = path
        keys = csrf
    }

    /// Appends markup as is.
    mutating func raw(_ s: String) { html += s }
    /// Appends text, escaped.
    mutating func text(_ s: String) { html += Self.escape(s) }

    /// A form that posts to `action` with the CSRF token, its fields from `body`.
    mutating func form(_ action: String, cssClass: String = "card", _ body: (inout Page) -> Void) {
        raw("<form method=\"post\" action=\"\(Self.escape(action))\" class=\"\(cssClass)\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">")
        raw(onceField)
        body(&self)
        raw("</form>")
    }

    /// A form's one-time token (`FormTokens`): a second post of the same form is answered as the
    /// first without doing anything again.
    var onceField: String { "<input type=\"hidden\" name=\"\(FormKeys.field)\" value=\"\(Self.escape(keys.issue()))\">" }

    /// A labelled input; with `error`, the error sits above the input, which is marked invalid
    /// and described by it (screen readers read it with the field).
    mutating func field(_ label: String, name: String, type: String = "text", value: String = "", extra: String = "", hint: String? = nil,
                        error: String? = nil) {
        let id = "f-" + name
        raw("<div class=\"field\"><label for=\"\(id)\">\(Self.escape(label))</label>")
        if let hint { raw("<p class=\"hint\" id=\"\(id)-hint\">\(Self.escape(hint))</p>") }
        if let error { raw("<p class=\"error\" id=\"\(id)-error\">\(Self.escape(error))</p>") }
        let described = [error.map { _ in id + "-error" }, hint.map { _ in id + "-hint" }].compactMap { $0 }
        raw("<input id=\"\(id)\" name=\"\(name)\" type=\"\(type)\" value=\"\(Self.escape(value))\" \(extra)")
        if error != nil { raw(" aria-invalid=\"true\"") }
        if error != nil, !html.contains(" autofocus") { raw(" autofocus") }
        if !described.isEmpty { raw(" aria-describedby=\"\(described.joined(separator: " "))\"") }
        raw("></div>")
    }

    /// A message shown after an action (`notice.mustache`): success or error, announced to
    /// screen readers; after a save or a delete that can be undone, an Undo button.
    mutating func notice(_ query: Form) {
        if let notice = Notice(query, back: path) { raw(WebTemplates.partial("notice", Frame(notice: notice), keys: keys)) }
    }

    private struct Frame { let notice: Notice }

    /// The whole document in the page frame (`layout.mustache`); `styles` and `scripts` are a
    /// page's own files, after the app's.
    func document(styles: [String] = [], scripts: [String] = []) -> String {
        WebTemplates.render(PageFrame(title: title, path: path, keys: keys, extraStyles: styles, extraScripts: scripts, body: html), "layout")
    }

    /// The page as a response.
    func response() -> Response { Self.respond(.ok, document()) }

    static func respond(_ status: HTTPResponse.Status, _ body: String, type: String = "text/html; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A page without navigation (refusals, log-in hints; `plain.mustache`).
    static func plain(status: HTTPResponse.Status, title: String, text: String, back: (href: String, label: String)? = nil) -> Response {
        respond(status, WebTemplates.render(Plain(title: title, text: text, style: WebAssets.path("app.css"),
                                                  back: back.map { Plain.Link(href: $0.href, label: $0.label) }), "plain"))
    }

    private struct Plain {
        struct Link { let href: String; let label: String }
        let title: String
        let text: String
        let style: String
        let back: Link?
    }

    /// A redirect after a POST (303), with a message for the page it lands on.
    /// With `emergency`, the page shows `EmergencyLine` under the message.
    static func redirect(_ path: String, ok: String? = nil, error: String? = nil, emergency: Bool = false) -> Response {
        var target = path
        let join = path.contains("?") ? "&" : "?"
        if let ok { target += join + "ok=" + percentEncode(ok) + (emergency ? "&emergency=1" : "") }
        if let error { target += join + "error=" + percentEncode(error) }
        return Response(status: .seeOther, headers: [.location: target])
    }

    /// Where a form asked to land after it was posted (`back`: home or the journal only),
    /// else `fallback`.
    static func back(_ form: Form, else fallback: String) -> String {
        ["/", "/journal"].contains(form["back"] ?? "") ? form["back"]! : fallback
    }

    static func percentEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E || b == 0x5F {
                out.append(Character(UnicodeScalar(b)))
            } else {
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    static func escape(_ s: String) -> String { HTMLText.escape(s) }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
