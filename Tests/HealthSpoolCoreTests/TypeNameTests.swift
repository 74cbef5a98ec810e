import Testing
@testable import HealthSpoolCore

/// A type name read from a file becomes a metric label, a log field and a word on a page: only
/// names are stored (issue 39).
@Suite struct TypeNameTests {
    @Test(arguments: ["HKQuantityTypeIdentifierStepCount", "stepCount", "walking_heart_rate", "bodyAndMuscleAche",
                      "HKCategoryTypeIdentifierSleepAnalysis", "location", "a", "blood-glucose.v2"])
    func namesAreStorable(_ name: String) {
        #expect(TypeName.isStorable(name))
    }

    @Test(arguments: ["HKQuantityTypeIdentifier$(id>x)", "", "step count", "steps\"}", "../../.bashrc", "`id`", "a;b",
                      "1steps", "_steps", "he\u{FFFD}rt", "line\nbreak", String(repeating: "a", count: 129)])
    func anythingElseIsNot(_ name: String) {
        #expect(!TypeName.isStorable(name))
    }
}
