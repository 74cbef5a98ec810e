import Testing
@testable import HealthSpoolCore

@Suite struct DataTypeTests {
    @Test func theRegistryCoversEveryCategoryWithUniqueNamesAndIdentifiers() {
        #expect(DataType.all.count >= 30)
        for c in DataCategory.allCases { #expect(!c.dataTypes.isEmpty, "\(c) has no types") }
        #expect(Set(DataType.all.map(\.name)).count == DataType.all.count)
        #expect(Set(DataType.all.map(\.hkIdentifier)).count == DataType.all.count)
    }

    @Test(arguments: ["heartRateVariability", "restingHeartRate", "sleepAnalysis"])
    func coreRecoveryTypesAreDeliveredImmediately(name: String) {
        #expect(DataType.lookup(name)?.defaultFrequency == .immediate)
    }

    @Test(arguments: ["stepCount", "bodyMass", "bodyFatPercentage", "bodyMassIndex"])
    func slowTypesAreDeliveredHourly(name: String) {
        #expect(DataType.lookup(name)?.defaultFrequency == .hourly)
    }

    @Test func lookupAcceptsNamesIdentifiersAndAnyCase() {
        #expect(DataType.lookup("HKQuantityTypeIdentifierStepCount")?.name == "stepCount")
        #expect(DataType.lookup("STEPCOUNT")?.name == "stepCount")
        #expect(DataType.canonicalName("HKQuantityTypeIdentifierNewThing") == "HKQuantityTypeIdentifierNewThing")
    }
}
