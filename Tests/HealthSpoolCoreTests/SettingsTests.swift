import Testing
@testable import HealthSpoolCore

@Suite struct SettingsTests {
    @Test func precedenceIsCommandLineThenEnvironmentThenUserThenSystem() throws {
        let s = try SettingsReader.resolve(
            files: [("/etc", "gateway.batch_size = 10\nsync.frequency = daily\ngateway.timeout = 5"),
                    ("~/.config", "[gateway]\nbatch_size = 20\ntimeout = 7")],
            environment: ["HEALTHSPOOL_GATEWAY_TIMEOUT": "9"],
            overrides: [("gateway.timeout", "11")])
        #expect(s.batchSize == 20)
        #expect(s.syncFrequency == .daily)
        #expect(s.requestTimeoutSeconds == 11)
    }

    @Test func theGlucoseUnitIsMmolPerLUnlessChosenInAnyCase() throws {
        #expect(try SettingsReader.resolve(files: [], environment: [:]).glucoseUnit == .mmolPerL)
        #expect(try SettingsReader.resolve(files: [("f.conf", "journal.glucose_unit = mg/dL")], environment: [:]).glucoseUnit == .mgPerDL)
        #expect(try SettingsReader.resolve(files: [], environment: ["HEALTHSPOOL_JOURNAL_GLUCOSE_UNIT": "MG/DL"]).glucoseUnit == .mgPerDL)
        #expect(SettingKey.named("journal.glucose_unit")?.normalized("mg/dl") == "mg/dL")
        #expect(throws: SettingsError.self) { try SettingsReader.resolve(files: [("f.conf", "journal.glucose_unit = mg")], environment: [:]) }
    }

    @Test func anUnknownKeyOrBadValueNamesTheFileAndLine() {
        #expect(throws: SettingsError.self) { try SettingsReader.resolve(files: [("f.conf", "\n\nbogus = 1")], environment: [:]) }
        do {
            _ = try SettingsReader.resolve(files: [("f.conf", "# c\ngateway.batch_size = lots")], environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("f.conf:2"))
            #expect(error.description.contains("whole number"))
        }
    }

    @Test func updatingAKeyKeepsCommentsAndOtherLines() {
        let text = "# mine\ngateway.url = https://a\nuser.id = bob\n"
        let out = SettingsReader.updating(text, key: "gateway.url", value: "https://b")
        #expect(out == "# mine\ngateway.url = https://b\nuser.id = bob\n")
        #expect(SettingsReader.updating(out, key: "gateway.url", value: nil) == "# mine\nuser.id = bob\n")
        #expect(SettingsReader.updating("", key: "a.b", value: "1") == "a.b = 1\n")
    }

    /// Fuzz finding C1 (config target, its input): a new key was appended after a trailing
    /// `[section]`, where it is read as `section.key`, so `gateway set` silently set the wrong key.
    @Test func aNewKeyGoesBeforeTheFirstSection() throws {
        let text = "[gateway]\nformat = confluent-v3\nauth = api[]\nlog.level=debug\n"
        let out = SettingsReader.updating(text, key: "log.level", value: "info")
        #expect(out == "log.level = info\n[gateway]\nformat = confluent-v3\nauth = api[]\nlog.level=debug\n")
        let entries = try SettingsReader.parseFile(out, origin: "f.conf")
        #expect(entries.contains { $0.0 == "log.level" && $0.1 == "info" })
        #expect(entries.contains { $0.0 == "gateway.log.level" && $0.1 == "debug" })
        let withTopLevel = "user.id = bob\n\n# the gateway\n[gateway]\nformat = json\n"
        #expect(SettingsReader.updating(withTopLevel, key: "sync.batch_size", value: "50")
            == "user.id = bob\nsync.batch_size = 50\n\n# the gateway\n[gateway]\nformat = json\n")
    }

    /// A key under its section header is found and rewritten there, in its short form; a line
    /// that only looks like the key under another section is left alone.
    @Test func aKeyUnderItsSectionIsRewrittenInPlace() throws {
        let text = "[sync]\ngateway.url = https://not-this\n[gateway]\nurl = https://a\nformat = json\n"
        let out = SettingsReader.updating(text, key: "gateway.url", value: "https://b")
        #expect(out == "[sync]\ngateway.url = https://not-this\n[gateway]\nurl = https://b\nformat = json\n")
        let removed = SettingsReader.updating(out, key: "gateway.url", value: nil)
        #expect(removed == "[sync]\ngateway.url = https://not-this\n[gateway]\nformat = json\n")
        let set = SettingsReader.updating("[gateway]\nformat = confluent-v3\n", key: "gateway.url", value: "https://c")
        #expect(set == "gateway.url = https://c\n[gateway]\nformat = confluent-v3\n")
        let t = try SettingsReader.resolve(files: [(origin: "f.conf", text: set)], environment: [:])
        #expect(t.gatewayURL == "https://c" && t.gatewayFormat != Settings().gatewayFormat)
    }

    /// Fuzz finding C2 (config target): Swift reads `\r\n` as one Character, so a split on `\n`
    /// left a CRLF file as one line: a key appended after a line ending in `\r` became part of
    /// that line's value, and a CRLF file read only its first key.
    @Test func aCRLFFileIsReadLineByLineAndUpdatedSo() throws {
        let text = "user.id = bob\r\n[gateway]\r\nformat = json\r\n"
        let entries = try SettingsReader.parseFile(text, origin: "f.conf")
        #expect(entries.map { "\($0.0)=\($0.1)@\($0.2)" } == ["user.id=bob@1", "gateway.format=json@3"])
        let fuzzed = "a/b = d/[gate\r"
        let out = SettingsReader.updating(fuzzed, key: "sync.throttle_seconds", value: "x=y")
        let after = try SettingsReader.parseFile(out, origin: "f.conf")
        #expect(after.map { "\($0.0)=\($0.1)" } == ["a/b=d/[gate", "sync.throttle_seconds=x=y"])
        let set = SettingsReader.updating(text, key: "gateway.format", value: "confluent-v3")
        #expect(try SettingsReader.parseFile(set, origin: "f.conf").map(\.1) == ["bob", "confluent-v3"])
    }

    /// Fuzz finding C3 (config target, its value): a value holding `\r\n` (one Character, so a
    /// check for "\n" missed it) would have added lines to the file `gateway set` writes. Every
    /// setting is one line: a line break in a value is refused, naming the key.
    @Test(arguments: ["[ga\r\nauth = ug", "x\ngateway.url = https://evil", "a\rb"])
    func aValueWithALineBreakIsRefused(_ value: String) {
        var s = Settings()
        #expect {
            try SettingsReader.apply("gateway.topic", value, to: &s, origin: "new value")
        } throws: { error in
            "\(error)".contains("gateway.topic") && "\(error)".contains("line break")
        }
    }

    @Test func disablingACategoryDisablesItsTypes() {
        var s = Settings()
        s.disabledTypes = ["nutrition", "HKQuantityTypeIdentifierStepCount"]
        #expect(!s.isEnabled("dietaryWater"))
        #expect(!s.isEnabled("stepCount"))
        #expect(s.isEnabled("heartRate"))
    }

    @Test func typeFrequenciesDefaultFromTheRegistryAndCanBeOverridden() {
        var s = Settings()
        #expect(s.frequency(of: "stepCount") == .hourly)
        s.immediateTypes = ["stepCount"]
        s.hourlyTypes = ["heartRate"]
        #expect(s.frequency(of: "stepCount") == .immediate)
        #expect(s.frequency(of: "heartRate") == .hourly)
    }

    @Test func everySettingHasAnEnvironmentName() {
        #expect(SettingKey.named("gateway.ca_file")?.environmentName == "HEALTHSPOOL_GATEWAY_CA_FILE")
        #expect(Set(SettingKey.all.map(\.name)).count == SettingKey.all.count)
    }
}
