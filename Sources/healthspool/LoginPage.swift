import HealthJournal
import HealthSpoolDaemon
import HealthSpoolLinux

/// The page `healthspool ui` hands the browser, `$XDG_RUNTIME_DIR/healthspool/login.html`. Only
/// its owner can read it (0600 in the 0700 runtime directory), so the login link reaches the
/// browser without passing through a command line or an environment another user can read.
///
/// The browser is opened on it before the daemon answers: while the service starts, the page
/// says so and reloads itself every second (a meta refresh of the file: no script, and no
/// request from a `file://` page to the web interface, which browsers may refuse); `ui`
/// rewrites it once the web interface listens, and the next reload forwards to the login link.
/// If the service cannot be started, the page says why and what to do.
enum LoginPage {
    /// What the page says.
    enum State {
        /// The service is starting: reload in a second.
        case starting
        /// The web interface answers: forward to the one-time login link.
        case ready(link: String)
        /// Nothing will come: a heading-sized summary and what to do, in plain words.
        case failed(what: String, todo: String)
    }

    /// The page's only style, allowed by its Content-Security-Policy by hash (the policy
    /// allows nothing else: no script, no request anywhere). Change both together;
    /// tests/integration/test_ui_start.py checks the hash.
    static let style = #"html{font-size:112.5%}body{margin:2rem auto;max-width:36rem;padding:0 1rem;font-family:system-ui,"DejaVu Sans",sans-serif;line-height:1.5;color:#1a1a1a;background:#f6f6f2}h1{font-size:1.5rem;color:#14365c}a{color:#0b4f9c}"#
    static let styleHash = "sha256-p5JwxvACWy4jve3xCz1Uf5nvh141/wy+4R7WCaX8OKU="

    static func path(runtimeDir: String) -> String { runtimeDir + "/login.html" }

    /// Writes the page for `state` (atomically: a reload never reads half a page) and returns its path.
    @discardableResult
    static func write(_ state: State, runtimeDir: String) throws -> String {
        try FileSystem.makeDirectory(runtimeDir, mode: 0o700)
        let path = path(runtimeDir: runtimeDir)
        try FileSystem.writeAtomically(path, Array(html(state).utf8), mode: 0o600)
        return path
    }

    static func html(_ state: State) -> String {
        let (refresh, title, body): (String?, String, String)
        switch state {
        case .starting:
            refresh = "1"
            title = "Starting your health journal…"
            body = "<h1>Starting your health journal…</h1>"
                + "<p>This takes a few seconds. This page opens your journal by itself when it is ready.</p>"
        case let .ready(link):
            refresh = "0;url=" + HTMLText.escape(link)
            title = "Opening your health journal…"
            body = "<h1>Opening your health journal…</h1><p><a href=\"\(HTMLText.escape(link))\">Open your health journal</a></p>"
        case let .failed(what, todo):
            refresh = nil
            title = "Your health journal could not start"
            body = "<h1>Your health journal could not start</h1><p>\(HTMLText.escape(what))</p><p>\(HTMLText.escape(todo))</p>"
        }
        let meta = refresh.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? ""
        return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src '\(styleHash)'\">"
            + "<meta name=\"referrer\" content=\"no-referrer\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + meta + "<title>\(title)</title><style>\(style)</style></head><body>\(body)</body></html>\n"
    }
}
