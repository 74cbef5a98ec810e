import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolIngest
import HealthSpoolLinux

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Show what the phone needs to push to the ingest endpoint: URL, fingerprint, token file.",
        discussion: """
            The ingest endpoint (off unless ingest.listen is set) takes Health Auto Export's REST API automation: \
            POST /ingest over HTTPS with Authorization: Bearer TOKEN (or X-API-Key: TOKEN). This prints its URL, \
            the SHA-256 fingerprint of the certificate it presents (for pinning), and the file that holds the \
            token. The token and the daemon's own certificate are made here when they do not exist yet, as the \
            daemon would make them. README, "Push from the phone", lists the app's settings.
            """
    )
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(name: .customLong("show-token"), help: "Also print the token itself.") var showToken = false

    func run() throws {
        let configuration = try common.configuration()
        guard configuration.ingestURL != nil else {
            throw CLIError("the ingest endpoint is off; set ingest.listen = ADDR:PORT (a LAN address of this machine) in healthspool.conf and restart the daemon")
        }
        let token: [UInt8]
        do {
            token = try IngestToken.loadOrCreate(path: configuration.ingestTokenPath, keyring: configuration.ingestTokenKeyring, environment: configuration.environment)
            try IngestCertificate.ensure(configuration: configuration)
        } catch { throw CLIError("\(error)") }
        var members = configuration.ingestJSON().objectValue ?? []
        if showToken { members.append(("token", .string(String(decoding: token, as: UTF8.self)))) }
        if json {
            var w = JSONWriter()
            w.value(.object(members))
            print(w.text)
            return
        }
        let info = JSONValue.object(members)
        print("URL:          \(info["url"]?.stringValue ?? "")")
        print("fingerprint:  SHA-256 \(info["fingerprintSHA256"]?.stringValue ?? "unknown")")
        print("certificate:  \(configuration.ingestCertPath)\(configuration.ingestUsesOwnCertificate ? " (self-signed by the daemon)" : "")")
        print("token file:   \(configuration.ingestTokenPath)")
        if showToken { print("token:        \(String(decoding: token, as: UTF8.self))") }
        print("headers:      Authorization: Bearer <token>   (or X-API-Key: <token>)")
        if ProcessLock.holder(of: configuration.pidFile) == nil {
            printError("the daemon is not running: the endpoint answers once it runs (systemctl --user start healthspool)")
        }
    }
}
