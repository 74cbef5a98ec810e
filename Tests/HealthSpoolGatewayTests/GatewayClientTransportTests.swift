@testable import HealthSpoolCore
@testable import HealthSpoolGateway
import Testing

/// `GatewayClient.deliver` carries `DeliveryPlanner`'s plan out over a transport: here a fake
/// one that answers 422 to any body holding a bad value, 200 otherwise (the real TLS gateway is
/// in the integration tests).
@Suite struct GatewayClientTransportTests {
    final class RejectingTransport: GatewayTransport {
        let poison: String
        var bodies: [String] = []
        init(poison: String) { self.poison = poison }
        func post(url: String, body: UnsafeRawBufferPointer, headers: [String]) throws(GatewayError) -> HTTPResponse {
            let text = String(decoding: body, as: UTF8.self)
            bodies.append(text)
            let bad = text.contains(poison)
            return HTTPResponse(status: bad ? 422 : 200, headers: [:], body: Array((bad ? "{\"message\":\"bad value\"}" : "{}").utf8),
                                newConnections: bodies.count == 1 ? 1 : 0)
        }
    }

    func batch(_ values: [Double]) -> EncodedBatch {
        let b = EncodedBatch()
        for (i, v) in values.enumerated() {
            let t = Timestamp(millis: 1_767_225_600_000 + Int64(i) * 60_000, utcOffsetSeconds: 0)
            b.append(StoredSample(sample: Sample(type: "heartRate", value: v, unit: "count/min", start: t, end: t,
                                                 source: SampleSource(name: "strap", version: nil, device: nil), metadata: [:]),
                                  createdAt: t, rowID: Int64(i + 1)))
        }
        return b
    }

    @Test func aRejectedSampleIsNarrowedDownAndTheRestDelivered() throws {
        let transport = RejectingTransport(poison: "\"value\":666")
        let client = try GatewayClient(endpoint: GatewayEndpoint(url: "https://gw.test/ingest"), transport: transport)
        let envelope = BatchEnvelope(deviceId: "d", userId: "u", appVersion: "0")
        let outcome = client.deliver(batch([60, 61, 666, 62]), envelope: envelope, now: Timestamp(millis: 1_767_225_700_000))
        #expect(outcome.accepted == 3)
        #expect(outcome.rejected.map(\.index) == [2])
        #expect(outcome.retry.isEmpty && outcome.error == nil)
        #expect(transport.bodies.count == 5, "all four, the left pair, the right pair, then each of the right pair")
        #expect(outcome.requests == transport.bodies.count && outcome.newConnections == 1)
    }

    /// ECGs of ~120 KB each: a batch of twenty goes in requests that each keep under
    /// `gateway.max_body_bytes`, every sample once, in order.
    @Test func aBatchLargerThanTheBodyLimitGoesInSeveralRequestsUnderIt() throws {
        let transport = RejectingTransport(poison: "never")
        let limit = 300_000
        let client = try GatewayClient(endpoint: GatewayEndpoint(url: "https://gw.test/ingest", maxBodyBytes: limit), transport: transport)
        let b = EncodedBatch()
        let voltages = ECGVoltages.encode((0..<15_360).map { Double($0 % 900) - 450.125 })
        for i in 0..<20 {
            let t = Timestamp(millis: 1_767_225_600_000 + Int64(i) * 60_000, utcOffsetSeconds: 0)
            b.append(StoredSample(sample: Sample(type: "electrocardiogram", value: 70, unit: "count/min", start: t, end: t.adding(millis: 30_000),
                                                 source: SampleSource(name: "watch"), metadata: ["voltages": voltages, "n": String(i)]),
                                  createdAt: t, rowID: Int64(i + 1)))
        }
        let outcome = client.deliver(b, envelope: BatchEnvelope(deviceId: "d", userId: "u", appVersion: "0"), now: Timestamp(millis: 1_767_225_700_000))
        #expect(outcome.accepted == 20 && outcome.retry.isEmpty)
        #expect(transport.bodies.count > 1)
        #expect(transport.bodies.allSatisfy { $0.utf8.count <= limit })
        let order = transport.bodies.flatMap { body in body.matches(of: /"n":"(\d+)"/).map { Int($0.1)! } }
        #expect(order == Array(0..<20))
    }
}
