@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
import Hummingbird

/// Builds the HTML of a page: one layout (skip link, navigation, main), text always escaped.
struct Page {
    /// The navigation, in order: path and label.
    static let sections: [(String, String)] = [
        ("/", "Today"), ("/day", "Days"), ("/import", "Import"), ("/journal", "Journal"), ("/meds", "Medications"), ("/reminders", "Reminders"),
        ("/measure", "Measurements"), ("/lifestyle", "Lifestyle"), ("/goals", "Goals"), ("/report", "Summary"), ("/sync", "Sending"),
        ("/settings", "Settings"),
    ]

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

    /// A message shown after an action: success or error, announced to screen readers. After a
    /// save or a delete that can be undone (`undo` in the address, `UndoLog`), the message holds
    /// an Undo button: a plain form, no script needed.
    mutating func notice(_ query: Form) {
        if let ok = query["ok"], let undo = query["undo"], UndoLog.isToken(undo) {
            raw("<div class=\"notice ok undoable\" role=\"status\"><p>\(Self.escape(ok))</p>")
            form("/undo", cssClass: "undo") { p in
                p.raw("<input type=\"hidden\" name=\"undo\" value=\"\(undo)\"><input type=\"hidden\" name=\"back\" value=\"\(Self.escape(p.path))\">")
                p.raw("<button type=\"submit\" class=\"secondary\" id=\"undo\">Undo</button>")
            }
            raw("</div>")
            if query["emergency"] == "1" { raw("<p class=\"emergency\" id=\"emergency\">\(Self.escape(EmergencyLine.text))</p>") }
        } else if let ok = query["ok"] {
            raw("<p class=\"notice ok\" role=\"status\">\(Self.escape(ok))</p>")
            if query["emergency"] == "1" { raw("<p class=\"emergency\" id=\"emergency\">\(Self.escape(EmergencyLine.text))</p>") }
        }
        if let err = query["error"] { raw("<p class=\"notice error\" role=\"alert\">\(Self.escape(err))</p>") }
    }

    /// The whole document; `head` adds a page's own style sheet or script (same-origin files).
    /// The menu is written twice: a row of links on a wide screen, and on a phone a "Menu"
    /// button that opens it (`<details>`: no script); the style sheet shows one of them.
    func document(head: String = "") -> String {
        var nav = ""
        for (p, label) in Self.sections {
            let current = p == path ? " aria-current=\"page\"" : ""
            nav += "<li><a href=\"\(p)\"\(current)>\(label)</a></li>"
        }
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <meta name="csrf" content="\(csrf)"><title>\(Self.escape(title)) – Health journal</title>\
            <link rel="icon" href="data:,"><link rel="stylesheet" href="/static/app.css"><script src="/static/app.js" defer></script>\(head)</head>\
            <body><a class="skip" href="#main">Skip to content</a><header><p class="brand">Health journal</p>\
            <nav aria-label="Main" class="nav-wide"><ul>\(nav)</ul></nav>\
            <details class="nav-narrow"><summary>Menu</summary><nav aria-label="Main menu"><ul>\(nav)</ul></nav></details></header>\
            <main id="main" tabindex="-1"><h1>\(Self.escape(title))</h1>\(html)</main></body></html>
            """
    }

    /// The page as a response.
    func response() -> Response { Self.respond(.ok, document()) }

    static func respond(_ status: HTTPResponse.Status, _ body: String, type: String = "text/html; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A page without navigation (refusals, log-in hints).
    static func plain(status: HTTPResponse.Status, title: String, text: String, back: (href: String, label: String)? = nil) -> Response {
        let link = back.map { "<p><a href=\"\(escape($0.href))\">\(escape($0.label))</a></p>" } ?? ""
        return respond(status, """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>\(escape(title)) – Health journal</title><link rel="stylesheet" href="/static/app.css"></head>\
            <body><main id="main"><h1>\(escape(title))</h1><p>\(escape(text))</p>\(link)</main></body></html>
            """)
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
