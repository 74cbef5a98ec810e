import HealthSpoolCore
import Testing

@Suite struct SettingsChangeTests {
    @Test func nothingChangedConcernsNoPart() {
        #expect(SettingsChange.between(Settings(), Settings()).isEmpty)
    }

    @Test func aGatewayChangeConcernsSyncOnly() {
        var new = Settings()
        new.gatewayURL = "https://gw.example:8443/topics"
        #expect(SettingsChange.between(Settings(), new) == .sync)
    }

    @Test func retentionAndScheduleChangesLeaveSyncAlone() {
        var new = Settings()
        new.retentionDays = 30
        new.throttleSeconds = 5
        #expect(SettingsChange.between(Settings(), new) == [.retention, .schedule])
    }

    @Test func enablingATypeConcernsWhatIsImportedAndWhatIsSent() {
        var new = Settings()
        new.disabledTypes = ["steps"]
        #expect(SettingsChange.between(Settings(), new) == [.sync, .intake])
    }

    @Test func directoriesAndLoggingAreTheirOwnParts() {
        var new = Settings()
        new.spoolDir = "/elsewhere"
        new.logLevel = "debug"
        #expect(SettingsChange.between(Settings(), new) == [.directories, .logging])
    }
}
