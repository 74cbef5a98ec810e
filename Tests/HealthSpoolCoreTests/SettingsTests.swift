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
