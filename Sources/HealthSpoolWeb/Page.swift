import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// What every route answers with: a page's response, a plain page without navigation, a
/// redirect after a post. Pages themselves are templates over view models (`WebTemplates`).
enum Page {
    static func respond(_ status: HTTPResponse.Status, _ body: String, type: String = "text/html; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A page without navigation (refusals, log-in hints; `plain.mustache`).
    static func plain(status: HTTPResponse.Status, title: String, text: String, back: (href: String, label: String)? = nil) -> Response {
        respond(status, WebTemplates.render(Plain(title: title, text: text, style: WebAssets.path("app.css"),
                                                  back: back.map { Plain.Link(href: $0.href, label: $0.label) }), .plain))
    }

    private struct Plain {
        struct Link { let href: String; let label: String }
        let title: String
        let text: String
        let style: String
        let back: Link?
    }

    /// A redirect after a POST (303), with a message for the page it lands on: the message is
    /// held by the server for the session (`SessionMemory`, by `NoticeRedirects` or the form-token
    /// step), and the address the browser gets names it only by an id.
    /// With `emergency`, the page shows `EmergencyLine` under the message.
    static func redirect(_ path: String, ok: String? = nil, error: String? = nil, emergency: Bool = false) -> Response {
        var target = path
        let join = path.contains("?") ? "&" : "?"
        if let ok { target += join + "ok=" + percentEncode(ok) + (emergency ? "&emergency=1" : "") }
        if let error { target += join + "error=" + percentEncode(error) }
        return Response(status: .seeOther, headers: [.location: target])
    }

    /// Where a form asked to land after it was posted (`back`) when it is a path of this site
    /// (and, with `among`, one of those), else `fallback`.
    static func back(_ path: String?, among: Set<String>? = nil, else fallback: String) -> String {
        guard let path, isLocalPath(path), among?.contains(path) ?? true else { return fallback }
        return path
    }

    /// `back` of a page's query (`?back=`: where the change page's forms land, and its Back link).
    static func back(_ query: Form, else fallback: String) -> String { back(query["back"], else: fallback) }

    /// A path on this site ("/day/2026-11-26"): no scheme, no other host, no query.
    static func isLocalPath(_ s: String) -> Bool {
        s.hasPrefix("/") && !s.hasPrefix("//") && s.count <= 200
            && s.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "/-_.".unicodeScalars.contains($0) }
    }

    /// A refusal in words for the page (a form's field it cannot read).
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// The answer to a form body that does not decode into its fields (`Form.decode`).
    static var unreadableForm: Response {
        plain(status: .badRequest, title: "This form could not be read",
              text: "What was sent is not a form of this page. Go back, reload the page and try again.",
              back: ("/", "Back to your health journal"))
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
