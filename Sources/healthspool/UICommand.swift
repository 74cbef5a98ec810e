import ArgumentParser
import HealthSpoolConfig
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

            When no daemon runs, ui starts the user service healthspool.service itself (the systemd user manager, \
            over its private socket, as systemctl --user start does) and opens the browser at once on that page, \
            which says the journal is starting and reloads itself; once the web interface answers (at most 60 \
            seconds), ui writes the login link into it and the page opens the journal. If the service cannot be \
            started (no systemd user manager, the unit not installed, a setting wrong), the page says so in plain \
            words with what to do, ui says it on standard error too and exits 1. This is what the application \
            menu's Health journal runs. With --no-open nothing is started: ui prints the link and warns when no \
            daemon runs.
            """
    )
    @OptionGroup var common: CommonOptions
    @Flag(name: .customLong("no-open"), help: "Only print the link; do not start a browser.") var noOpen = false

    /// The packaged user unit `ui` starts when no daemon runs.
    static let unit = "healthspool.service"
    /// How long `ui` waits for the web interface to answer once the daemon runs.
    static let webWaitSeconds = 60

    func run() throws {
        let configuration = try common.configuration()
        guard configuration.settings.webEnabled else {
            throw CLIError("the web interface is turned off (web.enabled = false in healthspool.conf)")
        }
        let address = UserLoopbackAddress.forUser(getuid()), port = configuration.settings.webPort
        try checkNotSquatted(address: address, port: port)
        let secret = try WebSecret.loadOrCreate(stateDir: configuration.stateDir, keyring: configuration.settings.secretsKeyring, environment: configuration.environment)
        let daemonRuns = ProcessLock.holder(of: configuration.pidFile) != nil
        if noOpen {
            print(LoginLink.make(secret: secret, now: RealTimeClock.now()).url(address: address, port: port))
            if !daemonRuns {
                printError("the daemon is not running, so the link will not open yet; start it: systemctl --user start healthspool "
                    + "(healthspool ui without --no-open starts it)")
            }
            return
        }
        let listening = { SocketOwner.listenerUID(address: address, port: port) == getuid() }
        if daemonRuns && listening() {
            let link = LoginLink.make(secret: secret, now: RealTimeClock.now()).url(address: address, port: port)
            open(try LoginPage.write(.ready(link: link), runtimeDir: configuration.runtimeDir), address: address, port: port)
            return
        }
        // Open the browser at once on a page that says the journal is starting; it reloads itself
        // until this command rewrites it with the login link, or with what went wrong.
        let page = try LoginPage.write(.starting, runtimeDir: configuration.runtimeDir)
        open(page, address: address, port: port)
        do {
            if !daemonRuns {
                printError("starting the healthspool service (systemctl --user start healthspool)…")
                try UserManager.start(Self.unit, runtimeDir: configuration.environment["XDG_RUNTIME_DIR"])
            }
            var waited = 0
            while !listening() {
                if let owner = SocketOwner.listenerUID(address: address, port: port), owner != getuid() {
                    throw StartFailure(what: "Another person's program on this computer holds the address of your health "
                                           + "journal, so it was not opened.",
                                       todo: "Ask whoever looks after this computer to give you another port (web.port in "
                                           + "~/.config/healthspool/healthspool.conf).",
                                       detail: "port \(port) on \(address) is held by user id \(owner)")
                }
                guard waited < Self.webWaitSeconds * 10 else {
                    throw StartFailure(what: "The health journal's background service runs, but its page did not answer "
                                           + "within \(Self.webWaitSeconds) seconds.",
                                       todo: "Close this page and open Health journal from your applications menu again. If it "
                                           + "still does not open, ask whoever looks after this computer; the command "
                                           + "healthspool status says what the service is doing.")
                }
                usleep(100_000)
                waited += 1
            }
        } catch let error as UserManagerError {
            try fail(StartFailure(error), page: configuration.runtimeDir)
        } catch let failure as StartFailure {
            try fail(failure, page: configuration.runtimeDir)
        }
        // A fresh link now: the two minutes it is valid start when the page can use it.
        let link = LoginLink.make(secret: secret, now: RealTimeClock.now()).url(address: address, port: port)
        try LoginPage.write(.ready(link: link), runtimeDir: configuration.runtimeDir)
        print("Your health journal is ready (\(address):\(port)).")
    }

    /// Refuses to make a link for a port another user's program holds.
    private func checkNotSquatted(address: String, port: Int) throws {
        if let owner = SocketOwner.listenerUID(address: address, port: port), owner != getuid() {
            throw CLIError("port \(port) on \(address) is held by another user's program (user id \(owner)), not by your "
                + "healthspool daemon; no link was made. Set web.port in ~/.config/healthspool/healthspool.conf to a free port "
                + "and restart the daemon: systemctl --user restart healthspool")
        }
    }

    /// Says what went wrong on the page the browser shows and on stderr, and exits 1.
    private func fail(_ failure: StartFailure, page runtimeDir: String) throws -> Never {
        try LoginPage.write(.failed(what: failure.what, todo: failure.todo), runtimeDir: runtimeDir)
        throw CLIError(failure.what + " " + failure.todo + (failure.detail.map { " (\($0))" } ?? ""))
    }

    /// Starts xdg-open on `page`; if it cannot be started, says which page to open.
    private func open(_ page: String, address: String, port: Int) {
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

/// Why the journal did not open, in the words the page shows: what happened, then what to do.
struct StartFailure: Error {
    let what: String
    let todo: String
    /// The technical detail, for stderr only.
    var detail: String? = nil

    init(what: String, todo: String, detail: String? = nil) {
        self.what = what
        self.todo = todo
        self.detail = detail
    }

    init(_ error: UserManagerError) {
        let ask = "ask whoever looks after this computer"
        switch error {
        case .noUserManager:
            self.init(what: "The health journal runs as a background service of your session, and this session has no "
                          + "service manager (systemd) to start it.",
                      todo: "Log out and log in again, then open Health journal from your applications menu. If this keeps "
                          + "happening, \(ask); they can start it by hand with the command healthspool daemon.",
                      detail: "\(error)")
        case .notInstalled:
            self.init(what: "The health journal's background service is not installed on this computer.",
                      todo: "Ask whoever looks after this computer to install the healthspool package again.",
                      detail: "\(error)")
        case .failed(_, _, _, 78):
            self.init(what: "The health journal's background service stopped because one of its settings is wrong.",
                      todo: "Ask whoever set up this computer to correct the settings: the command healthspool config check "
                          + "says which line.",
                      detail: "\(error); journalctl --user -u healthspool says more")
        case .failed, .timedOut, .refused:
            self.init(what: "The health journal's background service did not start.",
                      todo: "Close this page and open Health journal from your applications menu again. If it still does "
                          + "not open, \(ask); the command journalctl --user -u healthspool says why.",
                      detail: "\(error)")
        }
    }
}
