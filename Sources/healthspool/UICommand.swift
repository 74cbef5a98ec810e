import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import HealthSpoolWeb
#if canImport(Glibc)
import Glibc
#endif

struct UICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Open the web interface in your browser, logged in.",
        discussion: """
            Makes a one-time login link (valid once, for two minutes) to the daemon's web interface on \
            http://127.B.C.D:PORT/, a loopback address of your own derived from your user id (web.port), and \
            opens it in your browser with xdg-open. The link never appears on a command line: it is written into \
            a page only you can read ($XDG_RUNTIME_DIR/healthspool/login.html, mode 0600) and xdg-open is given \
            that page. The link is signed with the secret in ~/.local/state/healthspool/web.secret (mode 0600), \
            so only you can make one. Before opening it, ui checks that the program listening at that address is \
            yours; if another user's program holds the port, it says so and opens nothing.
            """
    )
    @OptionGroup var common: CommonOptions
    @Flag(name: .customLong("no-open"), help: "Only print the link; do not start a browser.") var noOpen = false

    func run() throws {
        let context = try common.context()
        guard context.settings.webEnabled else {
            throw CLIError("the web interface is turned off (web.enabled = false in healthspool.conf)")
        }
        let address = UserLoopbackAddress.forUser(getuid()), port = context.settings.webPort
        if let owner = SocketOwner.listenerUID(address: address, port: port), owner != getuid() {
            throw CLIError("port \(port) on \(address) is held by another user's program (user id \(owner)), not by your "
                + "healthspool daemon; no link was made. Set web.port in ~/.config/healthspool/healthspool.conf to a free port "
                + "and restart the daemon: systemctl --user restart healthspool")
        }
        let secret = try WebSecret.loadOrCreate(stateDir: context.stateDir, keyring: context.settings.secretsKeyring, environment: context.environment)
        let link = LoginLink.make(secret: secret, now: DaemonContext.now()).url(address: address, port: port)
        let daemonRuns = ProcessLock.holder(of: context.pidFile) != nil
        if noOpen {
            print(link)
        }
        if !daemonRuns {
            printError("the daemon is not running, so the page will not open yet; start it: systemctl --user start healthspool")
        }
        guard !noOpen else { return }
        let page = try LoginPage.write(link: link, runtimeDir: context.runtimeDir)
        print("Opening your health journal in the browser (\(address):\(port))…")
        var pid = pid_t()
        let argv = ["xdg-open", page]
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        let rc = posix_spawnp(&pid, "xdg-open", nil, nil, &cargs, environ)
        if rc != 0 {
            printError("could not start xdg-open (\(String(cString: strerror(rc)))); open this page in your browser: \(page)")
        }
    }
}

/// The page `healthspool ui` hands the browser: it forwards at once to the login link. Only its
/// owner can read it (0600 in the 0700 runtime directory), so the link reaches the browser
/// without passing through a command line or an environment another user can read.
enum LoginPage {
    static func write(link: String, runtimeDir: String) throws -> String {
        try FileSystem.makeDirectory(runtimeDir, mode: 0o700)
        let path = runtimeDir + "/login.html"
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">\
            <meta http-equiv="refresh" content="0;url=\(link)"><meta name="referrer" content="no-referrer">\
            <title>Opening your health journal…</title></head>\
            <body><p><a href="\(link)">Open your health journal</a></p></body></html>

            """
        try FileSystem.writeAtomically(path, Array(html.utf8), mode: 0o600)
        return path
    }
}
