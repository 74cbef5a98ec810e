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
            Prints a one-time login link (valid once, for two minutes) to the daemon's web interface on \
            http://127.0.0.1:PORT (web.port) and opens it with xdg-open. The link is signed with the secret in \
            ~/.local/state/healthspool/web.secret (mode 0600), so only you can make one.
            """
    )
    @OptionGroup var common: CommonOptions
    @Flag(name: .customLong("no-open"), help: "Only print the link; do not start a browser.") var noOpen = false

    func run() throws {
        let context = try common.context()
        guard context.settings.webEnabled else {
            throw CLIError("the web interface is turned off (web.enabled = false in healthspool.conf)")
        }
        let secret = try WebSecret.loadOrCreate(stateDir: context.stateDir)
        let link = LoginLink.make(secret: secret, now: DaemonContext.now()).url(port: context.settings.webPort)
        print(link)
        if ProcessLock.holder(of: context.pidFile) == nil {
            printError("the daemon is not running, so the page will not open yet; start it: systemctl --user start healthspool")
        }
        guard !noOpen else { return }
        var pid = pid_t()
        let argv = ["xdg-open", link]
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        let rc = posix_spawnp(&pid, "xdg-open", nil, nil, &cargs, environ)
        if rc != 0 { printError("could not start xdg-open (\(String(cString: strerror(rc)))); open the link above in your browser") }
    }
}
