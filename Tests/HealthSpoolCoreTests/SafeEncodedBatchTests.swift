import Testing
@testable import HealthSpoolCore

/// The safe-buffer encoder writes what the production encoder writes, byte for byte.
@Suite struct SafeEncodedBatchTests {
    let envelope = BatchEnvelope(deviceId: "dev\"ice", userId: "alice", appVersion: "0.1.0")
    let now = Timestamp(millis: 1_767_261_600_123)

    func both(_ rows: [EncoderRow], capacity: Int) -> (EncodedBatch, SafeEncodedBatch) {
        let a = EncodedBatch(capacity: capacity), b = SafeEncodedBatch(capacity: capacity)
        for form in [a, b] as [any EncoderForm] {
            form.setType("heartRate")
            form.fill(rows[...], sources: EncoderCorpus.sources)
        }
        return (a, b)
    }

    @Test func variedRowsGiveIdenticalBodiesInEveryFormatForAnyPart() throws {
        let rows = EncoderCorpus.rows(600, seed: 7)
        // Every kind the corpus makes is there.
        #expect(rows.contains { $0.deleted } && rows.contains { $0.version > 0 && !$0.deleted })
        #expect(rows.contains { $0.value.isNaN } && rows.contains { $0.start.millis < -62_167_219_200_000 })
        #expect(rows.contains { $0.end.millis >= 253_402_300_800_000 } && rows.contains { $0.start.utcOffsetSeconds == -34_200 })
        for capacity in [0, 1 << 20] {
            let (a, b) = both(rows, capacity: capacity)
            #expect(a.count == 600 && b.count == 600)
            #expect(a.rowIDs == b.rowIDs && a.ids == b.ids && a.versions == b.versions && a.tombstones == b.tombstones)
            for format in GatewayFormat.native {
                for range in [0..<600, 0..<1, 599..<600, 0..<300, 300..<600, 137..<212, 5..<5] {
                    let expected = a.bytes(range, format: format, envelope: envelope, now: now)
                    #expect(b.bytes(range, format: format, envelope: envelope, now: now) == expected, "\(format) \(range)")
                }
            }
        }
    }

    /// The SHA-256 of the bodies of `EncoderCorpus.rows(600, seed: 7)` (whole, halves and a few
    /// parts, every format) as the pointer-buffer encoder of commit b6a6d53 wrote them.
    static let pinnedDigest = "8dd7a7169c9395294e42f8355cb8c594d79b0211230166f9f2a1e9eec1c121aa"

    @Test func bodiesMatchWhatThePointerEncoderWrote() throws {
        let (a, b) = both(EncoderCorpus.rows(600, seed: 7), capacity: 0)
        for form in [a, b] as [any EncoderForm] {
            var all: [UInt8] = []
            for format in GatewayFormat.native {
                for range in [0..<600, 0..<300, 300..<600, 137..<212, 599..<600] {
                    all += form.bytes(range, format: format, envelope: envelope, now: now)
                }
            }
            let digest = SHA256.hash(all).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            #expect(digest == Self.pinnedDigest, "\(type(of: form))")
        }
    }

    @Test func theWholeJSONBatchInPlaceLeavesTheObjectsAsTheyWere() throws {
        let (a, b) = both(EncoderCorpus.rows(40, seed: 3), capacity: 256)
        let first = b.bytes(0..<40, format: .json, envelope: envelope, now: now)
        #expect(first == a.bytes(0..<40, format: .json, envelope: envelope, now: now))
        #expect(b.bytes(3..<9, format: .json, envelope: envelope, now: now) == a.bytes(3..<9, format: .json, envelope: envelope, now: now))
        // A head longer than the room in front: copied instead, same text.
        let long = BatchEnvelope(deviceId: "d", userId: String(repeating: "u", count: 300), appVersion: "x")
        #expect(b.bytes(0..<40, format: .json, envelope: long, now: now) == a.bytes(0..<40, format: .json, envelope: long, now: now))
        #expect(b.bytes(0..<40, format: .json, envelope: envelope, now: now) == first)
    }
}
