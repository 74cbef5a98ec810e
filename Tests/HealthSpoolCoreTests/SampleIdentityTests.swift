import Testing
@testable import HealthSpoolCore

@Suite struct SampleIdentityTests {
    func sample(value: Double = 72, device: String? = nil, source: String = "Watch", revisable: Bool = false,
                metadata: [String: String] = [:]) -> Sample {
        Sample(type: "heartRate", value: value, unit: "count/min", start: Timestamp(seconds: 1_767_261_600),
               end: Timestamp(seconds: 1_767_261_660), source: SampleSource(name: source, version: "1", device: device),
               metadata: metadata, revisable: revisable)
    }

    @Test func sha256MatchesTheFIPSVectors() {
        let hex = { (b: [UInt8]) in b.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(SHA256.hash(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func theSameMeasurementGetsTheSameIDWhateverTheDeviceString() {
        let a = sample(device: "<<HKDevice: 0x283f7c2d0>, name:Apple Watch>")
        let b = sample(device: "<<HKDevice: 0x11aa22bb0>, name:Apple Watch>")
        #expect(a.id == b.id)
        #expect(sample(metadata: ["k": "v"]).id == sample().id)
    }

    @Test func integralValuesIdentifyAlikeHoweverWritten() {
        #expect(sample(value: 72).id == sample(value: 72.0).id)
        #expect(SampleIdentity.canonicalNumber(72.0) == "72")
        #expect(SampleIdentity.canonicalNumber(0.1) == "0.1")
    }

    @Test(arguments: [("value", 73.0, "Watch"), ("source", 72.0, "Phone")])
    func aDifferentValueOrSourceIsADifferentSample(field: String, value: Double, source: String) {
        #expect(sample(value: value, source: source).id != sample().id, "changing \(field) must change the id")
    }

    @Test func aRevisableSampleKeepsItsIDWhenItsValueIsRevised() {
        #expect(sample(value: 1000, revisable: true).id == sample(value: 1500, revisable: true).id)
        #expect(sample(value: 1000, revisable: true).id != sample(value: 1000).id)
    }

    @Test func idsAreVersion8UUIDsThatRoundTrip() {
        let id = sample().id
        let text = id.description
        #expect(text.count == 36)
        #expect(Array(text)[14] == "8")
        #expect(SampleID(string: text) == id)
    }

    /// W1 (web fuzz target): `init(bytes:)` read the array through a pointer that had escaped its
    /// closure. Many fresh arrays, each freed at once, make a stale read give the wrong id even
    /// without AddressSanitizer (which reports it outright in `make fuzz-smoke`'s web seeds).
    @Test func anIDMadeFromBytesHoldsThoseBytes() {
        for n in 0..<2000 {
            let bytes = (0..<16).map { UInt8(truncatingIfNeeded: n &* 31 &+ $0 &* 7) }
            let id = SampleID(bytes: Array(bytes))
            #expect(id.bytes == bytes)
        }
    }
}
