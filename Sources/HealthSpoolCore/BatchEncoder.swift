/// A sample as read back from the store, with the time it was first stored.
public struct StoredSample: Sendable, Equatable {
    public var sample: Sample
    /// When healthspool first stored the sample.
    public var createdAt: Timestamp
    /// The store's row id: the order samples are sent in.
    public var rowID: Int64

    public init(sample: Sample, createdAt: Timestamp, rowID: Int64) {
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

    /// The request's `Content-Type`.
    public var contentType: String {
        switch self {
        case .json, .confluentV3: "application/json"
        case .confluentV2: "application/vnd.kafka.json.v2+json"
        }
    }
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
public enum BatchEncoder {
    /// The body for `samples` in `format`, stamped with `now`.
    public static func encode(_ samples: [StoredSample], format: GatewayFormat, envelope: BatchEnvelope,
                              now: Timestamp) -> [UInt8] {
        var w = JSONWriter(capacity: samples.count * (format == .json ? 420 : 560) + 256)
        var hk = HKCache()
        switch format {
        case .json:
            w.raw("{\"deviceId\":"); w.string(envelope.deviceId)
            w.raw(",\"userId\":"); w.string(envelope.userId)
            w.raw(",\"samples\":[")
            for (n, s) in samples.enumerated() {
                if n > 0 { w.raw(",") }
                writeSample(s, to: &w, hk: &hk)
            }
            w.raw("],\"timestamp\":"); w.timestamp(now, utc: true)
            w.raw(",\"appVersion\":"); w.string(envelope.appVersion)
            w.raw("}")
        case .confluentV2:
            let key = keyBytes(envelope), head = valueHead(envelope, now: now)
            w.raw("{\"records\":[")
            for (n, s) in samples.enumerated() {
                if n > 0 { w.raw(",") }
                w.raw("{\"key\":"); w.bytes.append(contentsOf: key)
                w.raw(",\"value\":"); w.bytes.append(contentsOf: head); writeSample(s, to: &w, hk: &hk)
                w.raw("}}")
            }
            w.raw("]}")
        case .confluentV3:
            let key = keyBytes(envelope), head = valueHead(envelope, now: now)
            for (n, s) in samples.enumerated() {
                if n > 0 { w.raw("\n") }
                w.raw("{\"key\":{\"type\":\"JSON\",\"data\":"); w.bytes.append(contentsOf: key)
                w.raw("},\"value\":{\"type\":\"JSON\",\"data\":"); w.bytes.append(contentsOf: head); writeSample(s, to: &w, hk: &hk)
                w.raw("}}}")
            }
        }
        return w.bytes
    }

    /// The record key: the user id as JSON text.
    static func keyBytes(_ envelope: BatchEnvelope) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.string(envelope.userId)
        return w.bytes
    }

    /// A record value up to its sample: `{"deviceId":…,"userId":…,"timestamp":…,"appVersion":…,"sample":`.
    static func valueHead(_ envelope: BatchEnvelope, now: Timestamp) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"deviceId\":"); w.string(envelope.deviceId)
        w.raw(",\"userId\":"); w.string(envelope.userId)
        w.raw(",\"timestamp\":"); w.timestamp(now, utc: true)
        w.raw(",\"appVersion\":"); w.string(envelope.appVersion)
        w.raw(",\"sample\":")
        return w.bytes
    }

    /// One Kafka record's value: the envelope plus one sample.
    static func writeRecordValue(_ s: StoredSample, envelope: BatchEnvelope, now: Timestamp, to w: inout JSONWriter) {
        var hk = HKCache()
        w.bytes.append(contentsOf: valueHead(envelope, now: now))
        writeSample(s, to: &w, hk: &hk)
        w.raw("}")
    }

    /// The HealthKit identifier of the last type looked up (batches hold one type).
    struct HKCache {
        var type = ""
        var identifier: String?
        mutating func lookup(_ t: String) -> String? {
            if t != type { type = t; identifier = DataType.lookup(t)?.hkIdentifier }
            return identifier
        }
    }

    /// One sample as a JSON object, keys in a fixed order.
    public static func writeSample(_ stored: StoredSample, to w: inout JSONWriter) {
        var hk = HKCache()
        writeSample(stored, to: &w, hk: &hk)
    }

    static func writeSample(_ stored: StoredSample, to w: inout JSONWriter, hk: inout HKCache) {
        let s = stored.sample
        w.raw("{\"id\":"); w.uuid(s.id)
        w.raw(",\"type\":"); w.string(s.type)
        if let id = hk.lookup(s.type) { w.raw(",\"hkType\":"); w.string(id) }
        w.raw(",\"value\":"); w.number(s.value)
        w.raw(",\"unit\":"); w.string(s.unit)
        w.raw(",\"startDate\":"); w.timestamp(s.start, utc: false)
        w.raw(",\"endDate\":"); w.timestamp(s.end, utc: false)
        w.raw(",\"source\":{\"name\":"); w.string(s.source.name)
        if let v = s.source.version { w.raw(",\"version\":"); w.string(v) }
        if let d = s.source.device { w.raw(",\"device\":"); w.string(d) }
        w.raw("},\"metadata\":{")
        if !s.metadata.isEmpty {
            for (n, k) in s.metadata.keys.sorted().enumerated() {
                if n > 0 { w.raw(",") }
                w.key(k); w.string(s.metadata[k]!)
            }
        }
        w.raw("},\"createdAt\":"); w.timestamp(stored.createdAt, utc: true)
        w.raw("}")
    }
}

extension JSONWriter {
    /// Appends a quoted RFC 3339 timestamp, as `Timestamp.iso8601UTC` (utc) or
    /// `Timestamp.iso8601Local` write it, without building a String.
    mutating func timestamp(_ t: Timestamp, utc: Bool) {
        let off = utc ? 0 : Int64(t.utcOffsetSeconds)
        let local = t.millis + off * 1000
        var days = local / 86_400_000, ms = local % 86_400_000
        if ms < 0 { days -= 1; ms += 86_400_000 }
        let d = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(d.year) else { string(utc ? t.iso8601UTC : t.iso8601Local); return }
        bytes.append(0x22)
        digits(d.year, 4); bytes.append(0x2D); digits(d.month, 2); bytes.append(0x2D); digits(d.day, 2)
        bytes.append(0x54)
        digits(Int(ms / 3_600_000), 2); bytes.append(0x3A); digits(Int(ms / 60_000 % 60), 2); bytes.append(0x3A)
        digits(Int(ms / 1000 % 60), 2); bytes.append(0x2E); digits(Int(ms % 1000), 3)
        if off == 0 {
            bytes.append(0x5A)
        } else {
            let a = Int(abs(off))
            bytes.append(off < 0 ? 0x2D : 0x2B)
            digits(a / 3600, 2); bytes.append(0x3A); digits(a % 3600 / 60, 2)
        }
        bytes.append(0x22)
    }

    /// Appends a quoted UUID, as `SampleID.description` writes it.
    mutating func uuid(_ id: SampleID) {
        let hex: StaticString = "0123456789abcdef"
        bytes.append(0x22)
        hex.withUTF8Buffer { h in
            for (i, b) in id.bytes.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 { bytes.append(0x2D) }
                bytes.append(h[Int(b >> 4)]); bytes.append(h[Int(b & 0xf)])
            }
        }
        bytes.append(0x22)
    }

    /// Appends `v` (0 ≤ v) zero-padded to `width` digits.
    @inline(__always) mutating func digits(_ v: Int, _ width: Int) {
        var div = 1
        for _ in 1..<width { div *= 10 }
        while div > 0 {
            bytes.append(0x30 + UInt8(truncatingIfNeeded: v / div % 10))
            div /= 10
        }
    }
}
