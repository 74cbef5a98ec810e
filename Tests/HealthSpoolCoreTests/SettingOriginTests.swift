import Testing
@testable import HealthSpoolCore

@Suite struct SettingOriginTests {
    let system = SettingsFile(path: "/etc/healthspool/healthspool.conf", text: "# site\ngateway.topic = site\nsync.frequency = daily\n", layer: .system)
    let user = SettingsFile(path: "/home/u/.config/healthspool/healthspool.conf", text: "[sync]\nfrequency = Hourly\nsenders = 3\n", layer: .user)

    @Test func eachKeyNamesTheLayerThatSetItLast() throws {
        let r = try SettingsReader.resolveTracked(files: [system, user], environment: ["HEALTHSPOOL_SYNC_SENDERS": "4"],
                                                  overrides: [("gateway.topic", "cli")])
        #expect(r.origin(of: "sync.frequency") == .file(layer: .user, path: user.path, line: 2))
        #expect(r.origin(of: "sync.senders") == .environment("HEALTHSPOOL_SYNC_SENDERS"))
        #expect(r.origin(of: "gateway.topic") == .commandLine)
        #expect(r.origin(of: "gateway.cluster") == .builtIn)
        #expect(r.sources["sync.frequency"]?.value == "Hourly")
        #expect(r.valueText(of: try #require(SettingKey.named("gateway.cluster"))) == "cluster")
        #expect(r.valueText(of: try #require(SettingKey.named("sync.frequency"))) == "hourly")
        #expect(r.origin(of: "sync.frequency").text == "\(user.path):2")
        #expect(r.origin(of: "sync.frequency").kind == "user")
    }

    @Test func trackingLoadsTheSameValuesAsResolve() throws {
        let env = ["HEALTHSPOOL_SYNC_SENDERS": "4"]
        let tracked = try SettingsReader.resolveTracked(files: [system, user], environment: env).settings
        let plain = try SettingsReader.resolve(files: [(system.path, system.text), (user.path, user.text)], environment: env)
        #expect(tracked == plain)
        #expect(plain.syncFrequency == .hourly && plain.senders == 4 && plain.gatewayTopic == "site")
    }

    @Test func checkReportsEveryBadLineAndKeepsTheGoodOnes() {
        let bad = SettingsFile(path: "/u.conf", text: "sync.senders = 99\nno equals\ngateway.ulr = x\nsync.throttle_seconds = 5\n", layer: .user)
        let (r, errors) = SettingsReader.check(files: [system, bad], environment: ["HEALTHSPOOL_LOG_LEVEL": "loud"])
        #expect(errors.map(\.origin) == ["/u.conf:1", "/u.conf:2", "/u.conf:3", "HEALTHSPOOL_LOG_LEVEL"])
        #expect(errors.map(\.description).contains("/u.conf:2: expected 'key = value'"))
        #expect(errors.contains { $0.reason.contains("did you mean 'gateway.url'?") })
        #expect(r.settings.throttleSeconds == 5 && r.settings.senders == 2 && r.settings.syncFrequency == .daily)
        #expect(r.origin(of: "sync.senders") == .builtIn)
    }

    @Test func parseFileStillStopsAtTheFirstBadLine() {
        #expect(throws: SettingsError("line 2", "expected 'key = value'", origin: "f.conf")) {
            _ = try SettingsReader.parseFile("a = 1\nbad\nworse\n", origin: "f.conf")
        }
    }
}

@Suite struct SettingMaskTests {
    @Test(arguments: [
        ("https://alice:hunter2@gw.example/topics/x", "https://********@gw.example/topics/x", true),
        ("https://gw.example/topics/x?token=abc#frag", "https://gw.example/topics/x?********#frag", true),
        ("https://gw.example/topics/x", "https://gw.example/topics/x", false),
        ("health-samples", "health-samples", false),
    ])
    func urlsLoseTheirUserInformationAndQuery(value: String, shown: String, masked: Bool) {
        let result = SettingMask.shown(key: "gateway.url", value: value)
        #expect(result.text == shown && result.masked == masked)
    }
}

@Suite struct NameSuggestionTests {
    @Test func closestNameWithinAFewEdits() {
        let commands = ["status", "sync", "history", "config", "calendar"]
        #expect(NameSuggestion.closest(to: "stauts", among: commands) == "status")
        #expect(NameSuggestion.closest(to: "Confg", among: commands) == "config")
        #expect(NameSuggestion.closest(to: "hist", among: commands) == "history")
        #expect(NameSuggestion.closest(to: "xyzzy", among: commands) == nil)
        #expect(NameSuggestion.closest(to: "", among: commands) == nil)
        #expect(NameSuggestion.hint(for: "gateway.ulr", among: ["gateway.url", "gateway.pin"]) == " (did you mean 'gateway.url'?)")
    }
}

@Suite struct TextTableTests {
    @Test func columnsAreAsWideAsTheirWidestCell() {
        let t = TextTable(["TYPE", "N"], [["rapidPoundingOrFlutteringHeartbeat", "1"], ["height", "22"]])
        #expect(t.lines() == ["TYPE                                N",
                              "rapidPoundingOrFlutteringHeartbeat  1",
                              "height                              22"])
        #expect(TextTable.pad("ab", 4) == "ab  " && TextTable.pad("abcdef", 4) == "abcdef")
    }
}

@Suite struct CommandLineVerbosityTests {
    @Test func flagsAreTakenOutAnywhereBeforeDoubleDash() {
        let (args, v) = CommandLineVerbosity.extract(from: ["-q", "types", "list", "--verbose", "--", "-v"])
        #expect(args == ["types", "list", "--", "-v"] && v == .verbose)
        #expect(CommandLineVerbosity.extract(from: ["status", "-q"]).verbosity == .quiet)
        #expect(CommandLineVerbosity.extract(from: ["status"]).verbosity == .normal)
    }

    @Test func logLevels() {
        #expect(CommandLineVerbosity.verbose.logLevel(default: "warning") == "debug")
        #expect(CommandLineVerbosity.quiet.logLevel(default: "info") == "error")
        #expect(CommandLineVerbosity.normal.logLevel(default: "warning") == "warning")
    }
}
