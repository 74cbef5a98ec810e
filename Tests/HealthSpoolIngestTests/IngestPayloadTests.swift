import Testing
@testable import HealthSpoolIngest

@Suite struct IngestPayloadTests {
    @Test func aHealthAutoExportPayloadPasses() {
        let body = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2026-01-01 10:00:00 +0100","qty":12,"source":"Watch"}]}],"workouts":[]}}"#
        #expect(IngestPayload.problem(Array(body.utf8)) == nil)
    }

    @Test(arguments: [
        ("not json at all", "not JSON"),
        (#"{"samples":[]}"#, "not Health Auto Export JSON"),
        (#"[1,2]"#, "not Health Auto Export JSON"),
        (#"{"data":{"metrics":[{"name":"step_count","#, "not complete JSON"),
        (#"{"data":{"metrics":{"a":1}}}"#, "must be an array"),
    ])
    func otherBodiesAreRefusedWithAReason(_ body: String, _ reason: String) throws {
        let problem = try #require(IngestPayload.problem(Array(body.utf8)))
        #expect(problem.contains(reason), "\(problem)")
    }
}
