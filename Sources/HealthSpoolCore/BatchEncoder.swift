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
public enum BatchEncoder {
    /// The body for `samples` in `format`, stamped with `now`.
    public static func encode(_ samples: [StoredSample], format: GatewayFormat, envelope: BatchEnvelope,
                              now: Timestamp) -> [UInt8] {
        var w = JSONWriter(capacity: samples.count * 400 + 256)
        switch format {
        case .json:
            w.raw("{\"deviceId\":"); w.string(envelope.deviceId)
            w.raw(",\"userId\":"); w.string(envelope.userId)
            w.raw(",\"samples\":[")
            for (n, s) in samples.enumerated() {
                if n > 0 { w.raw(",") }
                writeSample(s, to: &w)
            }
            w.raw("],\"timestamp\":"); w.string(now.iso8601UTC)
            w.raw(",\"appVersion\":"); w.string(envelope.appVersion)
            w.raw("}")
        case .confluentV2:
            w.raw("{\"records\":[")
            for (n, s) in samples.enumerated() {
                if n > 0 { w.raw(",") }
                w.raw("{\"key\":"); w.string(envelope.userId)
                w.raw(",\"value\":"); writeRecordValue(s, envelope: envelope, now: now, to: &w)
                w.raw("}")
            }
            w.raw("]}")
        case .confluentV3:
            for (n, s) in samples.enumerated() {
                if n > 0 { w.raw("\n") }
                w.raw("{\"key\":{\"type\":\"JSON\",\"data\":"); w.string(envelope.userId)
                w.raw("},\"value\":{\"type\":\"JSON\",\"data\":"); writeRecordValue(s, envelope: envelope, now: now, to: &w)
                w.raw("}}")
            }
        }
        return w.bytes
    }

    /// One Kafka record's value: the envelope plus one sample.
    static func writeRecordValue(_ s: StoredSample, envelope: BatchEnvelope, now: Timestamp, to w: inout JSONWriter) {
        w.raw("{\"deviceId\":"); w.string(envelope.deviceId)
        w.raw(",\"userId\":"); w.string(envelope.userId)
        w.raw(",\"timestamp\":"); w.string(now.iso8601UTC)
        w.raw(",\"appVersion\":"); w.string(envelope.appVersion)
        w.raw(",\"sample\":"); writeSample(s, to: &w)
        w.raw("}")
    }

    /// One sample as a JSON object, keys in a fixed order.
    public static func writeSample(_ stored: StoredSample, to w: inout JSONWriter) {
        let s = stored.sample
        w.raw("{\"id\":"); w.string(s.id.description)
        w.raw(",\"type\":"); w.string(s.type)
        if let hk = DataType.lookup(s.type)?.hkIdentifier { w.raw(",\"hkType\":"); w.string(hk) }
        w.raw(",\"value\":"); w.number(s.value)
        w.raw(",\"unit\":"); w.string(s.unit)
        w.raw(",\"startDate\":"); w.string(s.start.iso8601Local)
        w.raw(",\"endDate\":"); w.string(s.end.iso8601Local)
        w.raw(",\"source\":{\"name\":"); w.string(s.source.name)
        if let v = s.source.version { w.raw(",\"version\":"); w.string(v) }
        if let d = s.source.device { w.raw(",\"device\":"); w.string(d) }
        w.raw("},\"metadata\":{")
        for (n, k) in s.metadata.keys.sorted().enumerated() {
            if n > 0 { w.raw(",") }
            w.key(k); w.string(s.metadata[k]!)
        }
        w.raw("},\"createdAt\":"); w.string(stored.createdAt.iso8601UTC)
        w.raw("}")
    }
}
