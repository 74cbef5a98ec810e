import Testing
@testable import HealthSpoolCore

/// Issue 32: a backlog goes out in larger requests, while the gateway answers quickly.
@Suite struct BatchSizingTests {
    let sizing = BatchSizing(batchSize: 100, backlogBatchSize: 500, timeoutSeconds: 30)

    @Test func aBacklogGoesInLargerRequestsWhileTheGatewayIsQuick() {
        // No request yet (the catch-up at start) or a quick last one: up to the backlog size.
        #expect(sizing.limit(lastRequestSeconds: nil) == 500)
        #expect(sizing.limit(lastRequestSeconds: 0.05) == 500)
        // A quarter of the timeout is still quick; more is not.
        #expect(sizing.limit(lastRequestSeconds: 7.5) == 500)
        #expect(sizing.limit(lastRequestSeconds: 7.6) == 100)
        #expect(sizing.limit(lastRequestSeconds: 30) == 100)
    }

    @Test func theBacklogSizeIsNeverBelowTheBatchSize() {
        let off = BatchSizing(batchSize: 100, backlogBatchSize: 100, timeoutSeconds: 30)
        #expect(off.limit(lastRequestSeconds: nil) == 100)
        let below = BatchSizing(batchSize: 200, backlogBatchSize: 50, timeoutSeconds: 30)
        #expect(below.backlogBatchSize == 200 && below.limit(lastRequestSeconds: 0.1) == 200)
    }

    @Test func theSettingsGiveTheSizing() throws {
        var s = Settings()
        #expect(s.batchSizing == BatchSizing(batchSize: 100, backlogBatchSize: 500, timeoutSeconds: 30))
        s.requestTimeoutSeconds = 4
        #expect(s.batchSizing.quickSeconds == 1)
        var larger = Settings()
        larger.backlogBatchSize = 1000
        #expect(SettingsChange.between(Settings(), larger).contains(.sync))
    }
}
