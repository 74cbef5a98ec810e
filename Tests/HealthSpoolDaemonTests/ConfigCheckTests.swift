import Testing
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
@testable import HealthSpoolDaemon
#if canImport(Glibc)
import Glibc
#endif

/// `ConfigCheck.run`, what `healthspool config check` prints (issue 41: the checks themselves in
/// Swift; tests/integration/test_config.py keeps what only the binary shows: the exit status 78,
/// the JSON, the shipped file, a secret never printed). Real files in a temporary HOME, an
/// environment given as a value (no D-Bus: the keyring is not asked).
@Suite struct ConfigCheckTests {
    let home: String
    let environment: [String: String]
    let paths: Paths

    init() throws {
        var template = Array("/tmp/healthspool-configcheck-XXXXXX".utf8CString)
        home = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        environment = ["HOME": home, "HEALTHSPOOL_SYSTEM_CONFIG": home + "/etc-healthspool.conf", "XDG_RUNTIME_DIR": home + "/run"]
        paths = Paths(environment: environment)
    }

    /// Writes the user's config file; returns its path.
    func userFile(_ text: String) throws -> String {
        _ = mkdir(home + "/.config", 0o700)
        _ = mkdir(paths.configDir, 0o700)
        try write(paths.userConfigFile, text)
        return paths.userConfigFile
    }

    func write(_ path: String, _ text: String, mode: mode_t = 0o600) throws {
        try FileSystem.writeAtomically(path, Array(text.utf8))
        #expect(chmod(path, mode) == 0)
    }

    /// The lines `config check` prints for the problems found.
    func check(_ extra: [String: String] = [:], overrides: [(String, String)] = []) -> [String] {
        ConfigCheck.run(paths: paths, environment: environment.merging(extra) { $1 }, overrides: overrides).problems.map(\.line)
    }

    @Test func anEmptyConfigurationHasNoProblem() {
        #expect(check() == [])
    }

    @Test func everyBadLineOfTheUserFileIsNamedWithItsLineNotOnlyTheFirst() throws {
        let path = try userFile("gateway.batch_size = 0\nthis line has no equals sign\n[gateway]\nulr = https://gw.example\n")
        let lines = check()
        #expect(lines.contains { $0.hasPrefix("\(path):1: gateway.batch_size: '0' is not a whole number") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):2: expected 'key = value'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):4: gateway.ulr: unknown setting (did you mean 'gateway.url'?)") }, "\(lines)")
        #expect(lines.count == 3, "\(lines)")
    }

    @Test func theSystemFilesBadValueIsNamedWithItsFileAndLine() throws {
        try write(paths.systemConfigFile, "# system\n\nsync.frequency = sometimes\n", mode: 0o644)
        let lines = check()
        #expect(lines.count == 1 && lines[0].hasPrefix("\(paths.systemConfigFile):3: sync.frequency: 'sometimes' is not one of"), "\(lines)")
    }

    @Test func aBadVariableABadSetAndAnUnknownVariableAreEachNamed() {
        let problems = ConfigCheck.run(paths: paths, environment: environment.merging(["HEALTHSPOOL_SYNC_SENDERS": "99", "HEALTHSPOOL_SYNC_SENDRES": "2"]) { $1 },
                                       overrides: [("log.level", "loud")]).problems
        let lines = problems.map(\.line)
        #expect(lines.contains { $0.contains("HEALTHSPOOL_SYNC_SENDERS: sync.senders: '99' is not a whole number from 1 to 16") }, "\(lines)")
        #expect(lines.contains { $0.contains("log.level: 'loud' is not one of") }, "\(lines)")
        // The daemon ignores an unknown variable: a warning, with the name likely meant.
        let unknown = problems.filter { $0.origin == "environment HEALTHSPOOL_SYNC_SENDRES" }
        #expect(unknown.count == 1 && unknown[0].isWarning, "\(lines)")
        #expect(unknown.first?.message == "no such setting (did you mean 'HEALTHSPOOL_SYNC_SENDERS'?); it is ignored")
        #expect(problems.filter { !$0.isWarning }.count == 2, "\(lines)")
    }

    @Test func missingAndWrongFilesAreNamedAnOpenKeyIsAWarning() throws {
        let notPEM = home + "/ca.der", key = home + "/client.key", aFile = home + "/afile"
        try FileSystem.writeAtomically(notPEM, [0x30, 0x82, 0x01, 0x00])
        try write(key, "-----BEGIN PRIVATE KEY-----\n", mode: 0o644)
        try write(aFile, "")
        let path = try userFile("gateway.ca_file = \(notPEM)\ngateway.client_cert = \(home)/missing.pem\n"
                                + "gateway.client_key = \(key)\nspool.dir = \(aFile)\n")
        let lines = check()
        #expect(lines.contains { $0.hasPrefix("\(path):1: gateway.ca_file: \(notPEM) holds no PEM certificate") }, "\(lines)")
        #expect(lines.contains("\(path):2: gateway.client_cert: \(home)/missing.pem does not exist"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):3: gateway.client_key: warning: \(key) is readable by group or others") }, "\(lines)")
        #expect(lines.contains("\(path):4: spool.dir: \(aFile) is not a directory"), "\(lines)")
    }

    @Test func theIngestAndMetricsFilesAreCheckedAndPassOnceRight() throws {
        let token = home + "/ingest.token", cert = home + "/ingest.pem"
        try write(token, "0123456789abcdef0123456789abcdef\n", mode: 0o644)
        try write(cert, "not a certificate\n")
        let path = try userFile("ingest.listen = 127.0.0.1:8443\ningest.token_file = \(token)\ningest.cert_file = \(cert)\n"
                                + "metrics.textfile = \(home)/no-such-folder/healthspool.prom\n")
        let lines = check()
        #expect(lines.contains { $0.hasPrefix("\(path):2: ingest.token_file: \(token) is readable by group or others") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):3: ingest.cert_file: \(cert) holds no PEM certificate") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):3: ingest.cert_file: a given certificate needs both ingest.cert_file and ingest.key_file") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):4: metrics.textfile: warning: the folder \(home)/no-such-folder does not exist") }, "\(lines)")

        #expect(chmod(token, 0o600) == 0)
        _ = try userFile("ingest.listen = 127.0.0.1:8443\ningest.token_file = \(token)\nmetrics.textfile = \(home)/healthspool.prom\n")
        let errors = ConfigCheck.run(paths: paths, environment: environment).problems.filter { !$0.isWarning }
        #expect(errors.isEmpty, "\(errors.map(\.line))")
    }

    @Test func aWebSecretOthersCanReadIsRefusedWhileTheWebIsOn() throws {
        let state = paths.expand(Settings().stateDir)
        try FileSystem.makeDirectory(state)
        try write(state + "/web.secret", String(repeating: "00", count: 32) + "\n", mode: 0o644)
        #expect(check(["HEALTHSPOOL_WEB_ENABLED": "false"]).isEmpty, "the web is off: the secret is not read")
        let lines = check(["HEALTHSPOOL_WEB_ENABLED": "true"])
        #expect(lines.contains { $0.contains("\(state)/web.secret is readable by group or others") }, "\(lines)")
        #expect(chmod(state + "/web.secret", 0o600) == 0)
        #expect(check(["HEALTHSPOOL_WEB_ENABLED": "true"]).isEmpty)
    }

    @Test func aNotesFolderThatIsAFileIsNamed() throws {
        let state = paths.expand(Settings().stateDir)
        try FileSystem.makeDirectory(state)
        try write(state + "/notes", "not a folder")
        #expect(check() == ["default: state.dir: \(state)/notes is not a directory"])
    }

    @Test func authWithoutASecretIsAnError() throws {
        let path = try userFile("gateway.url = https://gw.example/topics/x\ngateway.auth = Basic\n")
        let lines = check()
        #expect(lines.contains { $0.hasPrefix("\(path):2: gateway.auth: auth basic needs a secret") }, "\(lines)")
    }
}
