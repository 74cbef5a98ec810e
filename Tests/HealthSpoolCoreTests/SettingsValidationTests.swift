import Testing
@testable import HealthSpoolCore

/// Settings are never silently ignored (issue 13, items 3 and 4).
@Suite struct SettingsValidationTests {
    func load(_ text: String) throws(SettingsError) -> Settings {
        try SettingsReader.resolve(files: [("/home/u/.config/healthspool/healthspool.conf", text)], environment: [:])
    }

    @Test(arguments: [#"types.disabled = ["nutrition", "sleep"]"#, #"types.disabled = [nutrition, sleep]"#,
                      #"types.disabled = "nutrition", "sleep""#, "types.disabled = nutrition, sleep",
                      "[types]\ndisabled = ['nutrition','sleep']"])
    func theListSyntaxDisablesEachItem(line: String) throws {
        let s = try load(line)
        #expect(s.disabledTypes == ["nutrition", "sleep"])
        #expect(!s.isEnabled("dietaryWater") && !s.isEnabled("sleepAnalysis") && s.isEnabled("heartRate"))
    }

    @Test func aMisspelledTypeIsAnErrorNamingTheFileLineAndTheClosestName() {
        do {
            _ = try load("# mine\n\ntypes.disabled = nutrition, sleeep")
            Issue.record("a misspelled type was accepted")
        } catch {
            #expect(error.description.contains("/home/u/.config/healthspool/healthspool.conf:3"))
            #expect(error.description.contains("types.disabled"))
            #expect(error.description.contains("'sleeep'"))
            #expect(error.description.contains("did you mean 'sleep'"))
            #expect(error.description.contains("bodyMeasurements, activity"))
        }
    }

    @Test(arguments: ["types.hourly = stepCont", "types.immediate = [heartRate, hartRate]", "types.enabled = foo"])
    func everyTypeListRefusesUnknownNames(line: String) {
        #expect(throws: SettingsError.self) { try load(line) }
    }

    @Test func anUnknownLogLevelIsAnErrorThatSaysWhatIsAllowed() {
        do {
            _ = try load("log.level = verbose")
            Issue.record("an unknown log level was accepted")
        } catch {
            #expect(error.description.contains("healthspool.conf:1"))
            #expect(error.description.contains("'verbose' is not one of: trace, debug, info, notice, warning, error, critical"))
        }
        #expect((try? load("log.level = Debug"))?.logLevel == "debug")
    }

    @Test func anUnclosedListIsAnError() {
        #expect(throws: SettingsError.self) { try load(#"types.disabled = ["nutrition", "sleep""#) }
        #expect(throws: SettingsError.self) { try load(#"types.disabled = ["nutrition, sleep]"#) }
    }

    @Test func anEnvironmentValueIsCheckedToo() {
        do {
            _ = try SettingsReader.resolve(files: [], environment: ["HEALTHSPOOL_TYPES_DISABLED": "nutriton"])
            Issue.record("a misspelled category was accepted")
        } catch {
            #expect(error.description.contains("HEALTHSPOOL_TYPES_DISABLED"))
            #expect(error.description.contains("did you mean 'nutrition'"))
        }
    }

    @Test func anyHealthKitIdentifierIsAccepted() throws {
        let s = try load("types.disabled = HKQuantityTypeIdentifierDietaryBiotin, HKCategoryTypeIdentifierHeadache")
        #expect(!s.isEnabled("HKQuantityTypeIdentifierDietaryBiotin"))
        #expect(!s.isEnabled("HKCategoryTypeIdentifierHeadache"))
        #expect(s.isEnabled("HKQuantityTypeIdentifierDietaryZinc"))
        for bad in ["HKQuantityTypeIdentifier dietary", "HKFooIdentifierBar", "HKQuantityTypeIdentifierdietary", "hkQuantityTypeIdentifierX"] {
            #expect(!DataType.isHealthKitIdentifier(bad), "\(bad)")
        }
    }

    @Test func aCategoryCoversIdentifiersOutsideTheRegistryByFamily() {
        var s = Settings()
        s.disabledTypes = ["nutrition"]
        for name in ["HKQuantityTypeIdentifierDietaryVitaminB6", "HKQuantityTypeIdentifierDietaryBiotin", "HKCorrelationTypeIdentifierFood",
                     "vitamin_b6", "zinc", "dietary_cholesterol"] {
            #expect(!s.isEnabled(name), "\(name) should be nutrition")
        }
        #expect(s.isEnabled("HKQuantityTypeIdentifierUnderwaterDepth"))
        #expect(DataType.category(of: "HKQuantityTypeIdentifierAppleSleepingWristTemperature") == .sleep)
        #expect(DataType.category(of: "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute") == .cardiovascular)
        #expect(DataType.category(of: "HKQuantityTypeIdentifierForcedVitalCapacity") == .respiratory)
        #expect(DataType.category(of: "HKQuantityTypeIdentifierRunningSpeed") == .activity)
        #expect(DataType.category(of: "HKQuantityTypeIdentifierWalkingHeartRateAverage") == .cardiovascular)
        #expect(DataType.category(of: "HKCategoryTypeIdentifierHeadache") == .symptoms)
        #expect(DataType.category(of: "HKCategoryTypeIdentifierToothache") == .other)
        // Every registry type's own identifier lands in its own category by the rules too.
        for t in DataType.all where t.category != .other {
            #expect(DataType.familyRules.first { $0.matches(DataType.familyStem(t.hkIdentifier)) }?.category == t.category, "\(t.name)")
        }
    }

    @Test func aTypeEnabledInsideADisabledCategoryStaysTheOnlyOne() {
        var s = Settings()
        s.disabledTypes = ["nutrition"]
        s.enabledTypes = ["dietaryWater"]
        #expect(s.isEnabled("dietaryWater"))
        #expect(!s.isEnabled("dietaryEnergy") && !s.isEnabled("HKQuantityTypeIdentifierDietaryBiotin"))
        s.disabledTypes.append("dietaryWater")
        #expect(!s.isEnabled("dietaryWater"))
    }

    @Test func theTypeFilterDigestChangesWithWhatIsEnabled() {
        var a = Settings(), b = Settings()
        #expect(a.typeFilterDigest == b.typeFilterDigest)
        a.disabledTypes = ["nutrition", "HKQuantityTypeIdentifierStepCount"]
        b.disabledTypes = ["stepCount", "Nutrition"]
        #expect(a.typeFilterDigest == b.typeFilterDigest)
        b.disabledTypes = ["stepCount"]
        #expect(a.typeFilterDigest != b.typeFilterDigest)
    }

    @Test func retentionByAgeIsOffByDefaultAndTheArchiveIsBounded() throws {
        let s = Settings()
        #expect(s.retentionDays == 0)
        #expect(s.archiveDays == 30 && s.archiveMaxMB == 1024 && s.failedDays == 90)
        #expect(try load("store.retention_days = 0").retentionDays == 0)
    }
}
