import Hummingbird

/// A style sheet or script embedded at build time (`WebFiles.assets`, from `Assets/`).
struct EmbeddedAsset: Sendable {
    let text: String
    /// A hash of the content, in the file's address: a changed file gets a new address.
    let hash: String
}

/// The style sheets and scripts, served from memory under addresses that carry their content's
/// hash (`/static/app.<hash>.css`), so a browser keeps them for a year and asks again only
/// when a new build changed them. No third-party asset, nothing fetched from the internet.
enum WebAssets {
    /// How long a browser may keep a file whose address names its content.
    static let cacheControl = "public, max-age=31536000, immutable"

    /// The address of the embedded file `name` (`app.css`: `/static/app.<hash>.css`).
    static func path(_ name: String) -> String {
        guard let asset = WebFiles.assets[name], let dot = name.lastIndex(of: ".") else { preconditionFailure("no embedded asset \(name)") }
        return "/static/" + name[..<dot] + "." + asset.hash + name[dot...]
    }

    /// Every embedded file's address; they need no session (the login and refusal pages use them).
    static let paths: Set<String> = Set(WebFiles.assets.keys.map(path))

    /// A route per embedded file.
    static func add(to router: Router<WebContext>) {
        for (name, asset) in WebFiles.assets {
            let type = name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
            router.get(RouterPath(path(name))) { _, _ in
                var r = Page.respond(.ok, asset.text, type: type)
                r.headers[.cacheControl] = cacheControl
                return r
            }
        }
    }
}
