/// A sample as read back from the store, with the time it was first stored.
public struct StoredSample: Sendable, Equatable {
    public var sample: Sample
    /// When healthspool first stored the sample.
    public var createdAt: Timestamp
    /// The store's row id: the order samples are sent in.
    public var rowID: Int64

    public init(sample: consuming Sample, createdAt: Timestamp, rowID: Int64) {
        self.sample = sample
        self.createdAt = createdAt
        self.rowID = rowID
    }
}

/// The wire format spoken to the gateway.
public enum GatewayFormat: String, CaseIterable, Sendable {
    /// The origin design's payload: one JSON object per batch (`deviceId`, `userId`, `samples`, …).
    case json
    /// Confluent REST Proxy v2: `POST /topics/{topic}`, `application/vnd.kafka.json.v2+json`.
    case confluentV2 = "confluent-v2"
    /// Confluent REST Proxy v3: `POST /v3/clusters/{cluster}/topics/{topic}/records`, concatenated records.
    case confluentV3 = "confluent-v3"
    /// Confluent REST Proxy v2, each record's value a FHIR R4 resource (`FHIRObservation`).
    case fhir
    /// Confluent REST Proxy v3, each record's value a FHIR R4 resource.
    case fhirV3 = "fhir-v3"

    /// The envelope spoken on the wire: `json`, `confluentV2` or `confluentV3` (the `fhir`
    /// formats travel in the Confluent ones).
    public var wire: GatewayWire {
        switch self {
        case .json: .json
        case .confluentV2, .fhir: .confluentV2
        case .confluentV3, .fhirV3: .confluentV3
        }
    }

    /// Whether each record's value is a FHIR resource instead of healthspool's own object.
    public var carriesFHIR: Bool { self == .fhir || self == .fhirV3 }

    /// The request's `Content-Type`.
    public var contentType: String {
        switch wire {
        case .confluentV2: "application/vnd.kafka.json.v2+json"
        default: "application/json"
        }
    }
}

/// The envelope a `GatewayFormat` travels in.
public enum GatewayWire: Sendable {
    case json, confluentV2, confluentV3
}

/// Who is sending: the envelope fields every batch carries.
public struct BatchEnvelope: Sendable, Equatable {
    public var deviceId: String
    /// The partition key.
    public var userId: String
    public var appVersion: String

    public init(deviceId: String, userId: String, appVersion: String) {
        self.deviceId = deviceId
        self.userId = userId
        self.appVersion = appVersion
    }
}

/// Encodes batches of samples into request bodies.
///
/// Every record carries the sample's stable `id`. In the Confluent formats the record key is the
/// user id, written the way the REST proxy's JSON embedded format serializes it (JSON text,
/// `"alice"`), the same for v2 and v3, so one user's records share a partition whichever is used.
/// The work is done by `EncodedBatch`, which the sync path fills from the store directly.
public enum BatchEncoder {
    /// The body for `samples` in `format`, stamped with `now`.
    public static func encode(_ samples: some Collection<StoredSample>, format: GatewayFormat, envelope: BatchEnvelope,
                              now: Timestamp) -> [UInt8] {
        let batch = EncodedBatch(capacity: samples.count * 512 + 256)
        if format.carriesFHIR { batch.fhirUser = envelope.userId }
        for s in samples { batch.append(s) }
        return batch.body(0..<samples.count, format: format, envelope: envelope, now: now)
    }
}

extension JSONWriter {
    /// Appends a quoted RFC 3339 timestamp, as `Timestamp.iso8601UTC` (utc) or
    /// `Timestamp.iso8601Local` write it, without building a String.
    mutating func timestamp(_ t: Timestamp, utc: Bool) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONBytes.maxTimestamp) { buf in
            let n = JSONBytes.timestamp(t, utc: utc, lastDay: &lastDay, into: buf.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buf[0..<n]))
        }
    }

    /// Appends a quoted UUID, as `SampleID.description` writes it.
    mutating func uuid(_ id: SampleID) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONBytes.uuidLength) { buf in
            JSONBytes.uuid(id, into: buf.baseAddress!)
            bytes.append(contentsOf: buf)
        }
    }
}

/// JSON text written through a pointer into room the caller made: what `JSONWriter` and
/// `EncodedBatch` write values with.
enum JSONBytes {
    /// A quoted UUID's length.
    static let uuidLength = 38
    /// A quoted timestamp's length at most (years outside 0…9999 included).
    static let maxTimestamp = 48

    /// Writes `id` as a quoted UUID, as `SampleID.description` writes it.
    @inline(__always) static func uuid(_ id: SampleID, into b: UnsafeMutablePointer<UInt8>) {
        let hex: StaticString = "0123456789abcdef"
        let h = hex.utf8Start
        b[0] = 0x22
        var j = 1
        id.withUnsafeBytes { raw in
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 { b[j] = 0x2D; j += 1 }
                let v = raw[i]
                b[j] = h[Int(v >> 4)]; b[j + 1] = h[Int(v & 0xf)]
                j += 2
            }
        }
        b[37] = 0x22
    }

    /// Writes a quoted RFC 3339 timestamp, as `Timestamp.iso8601UTC` (utc) or
    /// `Timestamp.iso8601Local` write it; returns its length. `lastDay` caches the civil date.
    static func timestamp(_ t: Timestamp, utc: Bool, lastDay: inout (days: Int64, date: CivilDate)?,
                          into b: UnsafeMutablePointer<UInt8>) -> Int {
        let off = utc ? 0 : Int64(t.utcOffsetSeconds)
        let local = t.millis + off * 1000
        var days = local / 86_400_000, ms = local % 86_400_000
        if ms < 0 { days -= 1; ms += 86_400_000 }
        let d: CivilDate
        if let last = lastDay, last.days == days { d = last.date } else {
            d = CivilDate(daysSinceEpoch: days)
            lastDay = (days, d)
        }
        guard (0...9999).contains(d.year) else {
            // Out of the four-digit range: the String form, quoted (it needs no escaping).
            let text = utc ? t.iso8601UTC : t.iso8601Local
            var n = 1
            b[0] = 0x22
            for c in text.utf8.prefix(maxTimestamp - 2) { b[n] = c; n += 1 }
            b[n] = 0x22
            return n + 1
        }
        // "YYYY-MM-DDTHH:MM:SS.mmm" plus "Z" or "±HH:MM", quoted: at most 31 bytes, two digits
        // at a time from a table.
        let pairs = digitPairs.utf8Start
        @inline(__always) func two(_ v: Int, at i: Int) {
            b[i] = pairs[2 * v]
            b[i + 1] = pairs[2 * v + 1]
        }
        let msInt = Int(ms), second = msInt / 1000
        b[0] = 0x22
        two(d.year / 100, at: 1); two(d.year % 100, at: 3); b[5] = 0x2D; two(d.month, at: 6); b[8] = 0x2D; two(d.day, at: 9)
        b[11] = 0x54
        two(second / 3600, at: 12); b[14] = 0x3A; two(second / 60 % 60, at: 15); b[17] = 0x3A; two(second % 60, at: 18)
        b[20] = 0x2E; b[21] = 0x30 + UInt8(truncatingIfNeeded: msInt % 1000 / 100); two(msInt % 100, at: 22)
        if off == 0 {
            b[24] = 0x5A; b[25] = 0x22
            return 26
        }
        let a = Int(abs(off))
        b[24] = off < 0 ? 0x2D : 0x2B
        two(a / 3600 % 100, at: 25); b[27] = 0x3A; two(a % 3600 / 60, at: 28); b[30] = 0x22
        return 31
    }

    /// "00" to "99".
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes an integer (at most 20 bytes); returns its length.
    @inline(__always) static func integer(_ v: Int64, into b: UnsafeMutablePointer<UInt8>) -> Int {
        var n = v.magnitude, count = 0
        if v < 0 { b[0] = 0x2D }
        let sign = v < 0 ? 1 : 0
        // Digits from the right, then moved into place.
        var digits = (UInt64(0), UInt64(0), UInt64(0))   // 24 bytes
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[23 - count] = 0x30 + UInt8(n % 10)
                n /= 10
                count += 1
            } while n > 0
            (b + sign).update(from: d.baseAddress!.assumingMemoryBound(to: UInt8.self) + 24 - count, count: count)
        }
        return sign + count
    }

    /// Whether `v` is written as an integer (as `SampleIdentity.canonicalNumber` writes it).
    @inline(__always) static func isPlainInteger(_ v: Double) -> Bool { v.isFinite && v == v.rounded() && abs(v) < 1e15 }

    /// A number that is not a plain integer as JSON text: `null` when not finite.
    static func nonIntegerText(_ v: Double) -> String { v.isFinite ? SampleIdentity.canonicalNumber(v) : "null" }
}
