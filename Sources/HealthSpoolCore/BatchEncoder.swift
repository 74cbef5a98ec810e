/// A sample as read back from the store, with the time it was first stored.
public struct StoredSample: Sendable, Equatable {
    public var sample: Sample
    /// When healthspool first stored the sample.
    public var createdAt: Timestamp
    /// The store's row id: the order samples are sent in.
    public var rowID: Int64
    /// The metadata as the store keeps it (a JSON object, keys sorted, as the encoder writes
    /// them), when it was read back without decoding; it then stands for `sample.metadata`.
    public var metadataJSON: String?

    public init(sample: consuming Sample, createdAt: Timestamp, rowID: Int64, metadataJSON: String? = nil) {
        self.sample = sample
        self.createdAt = createdAt
        self.rowID = rowID
        self.metadataJSON = metadataJSON
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
        encode(samples[...], format: format, envelope: envelope, now: now)
    }

    /// The body for part of a batch (a batch being narrowed down), without copying it.
    public static func encode(_ samples: ArraySlice<StoredSample>, format: GatewayFormat, envelope: BatchEnvelope,
                              now: Timestamp) -> [UInt8] {
        // Through an unsafe buffer, each sample is read where it lies instead of being copied
        // out (which would retain and release every string in it).
        samples.withUnsafeBufferPointer { encode($0, format: format, envelope: envelope, now: now) }
    }

    static func encode(_ samples: UnsafeBufferPointer<StoredSample>, format: GatewayFormat, envelope: BatchEnvelope,
                       now: Timestamp) -> [UInt8] {
        var w = JSONWriter(capacity: samples.count * (format == .json ? 512 : 640) + 256)
        var pieces = Pieces()
        switch format {
        case .json:
            w.raw("{\"deviceId\":"); w.string(envelope.deviceId)
            w.raw(",\"userId\":"); w.string(envelope.userId)
            w.raw(",\"samples\":[")
            // Samples are read in place (by index), not copied out of the batch one by one.
            for i in samples.indices {
                if i > samples.startIndex { w.raw(",") }
                writeSample(at: samples.baseAddress! + i, to: &w, pieces: &pieces)
            }
            w.raw("],\"timestamp\":"); w.timestamp(now, utc: true)
            w.raw(",\"appVersion\":"); w.string(envelope.appVersion)
            w.raw("}")
        case .confluentV2:
            let key = keyBytes(envelope), head = valueHead(envelope, now: now)
            w.raw("{\"records\":[")
            for i in samples.indices {
                if i > samples.startIndex { w.raw(",") }
                w.raw("{\"key\":"); w.bytes.append(contentsOf: key)
                w.raw(",\"value\":"); w.bytes.append(contentsOf: head); writeSample(at: samples.baseAddress! + i, to: &w, pieces: &pieces)
                w.raw("}}")
            }
            w.raw("]}")
        case .confluentV3:
            let key = keyBytes(envelope), head = valueHead(envelope, now: now)
            for i in samples.indices {
                if i > samples.startIndex { w.raw("\n") }
                w.raw("{\"key\":{\"type\":\"JSON\",\"data\":"); w.bytes.append(contentsOf: key)
                w.raw("},\"value\":{\"type\":\"JSON\",\"data\":"); w.bytes.append(contentsOf: head); writeSample(at: samples.baseAddress! + i, to: &w, pieces: &pieces)
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

    /// Encoded pieces that repeat from one sample to the next (a batch holds one type, and
    /// mostly one unit, source and import time), kept as bytes so they are written by copying.
    struct Pieces {
        /// `,"type":…,"hkType":…,"value":` for `type`.
        var type = ""
        var typeBytes: [UInt8] = []
        /// `,"unit":…,"startDate":` for `unit`.
        var unit = ""
        var unitBytes: [UInt8] = []
        /// `,"source":{…},"metadata":` for `source` (empty: none yet).
        var source = SampleSource(name: "")
        var sourceBytes: [UInt8] = []
        /// `,"createdAt":"…"}` for `createdAt`.
        var createdAt: Int64?
        var createdAtBytes: [UInt8] = []

        mutating func typePart(_ t: String, into out: inout JSONWriter) {
            if t != type || typeBytes.isEmpty {
                var w = JSONWriter(capacity: 96)
                w.raw(",\"type\":"); w.string(t)
                if let id = DataType.lookup(t)?.hkIdentifier { w.raw(",\"hkType\":"); w.string(id) }
                w.raw(",\"value\":")
                type = t
                typeBytes = w.bytes
            }
            typeBytes.withUnsafeBufferPointer { out.bytes.append(contentsOf: $0) }
        }

        mutating func unitPart(_ u: String, into out: inout JSONWriter) {
            if u != unit || unitBytes.isEmpty {
                var w = JSONWriter(capacity: 48)
                w.raw(",\"unit\":"); w.string(u); w.raw(",\"startDate\":")
                unit = u
                unitBytes = w.bytes
            }
            unitBytes.withUnsafeBufferPointer { out.bytes.append(contentsOf: $0) }
        }

        mutating func sourcePart(_ s: SampleSource, into out: inout JSONWriter) {
            if sourceBytes.isEmpty || s != source {
                var w = JSONWriter(capacity: 128)
                w.raw(",\"source\":{\"name\":"); w.string(s.name)
                if let v = s.version { w.raw(",\"version\":"); w.string(v) }
                if let d = s.device { w.raw(",\"device\":"); w.string(d) }
                w.raw("},\"metadata\":")
                source = s
                sourceBytes = w.bytes
            }
            sourceBytes.withUnsafeBufferPointer { out.bytes.append(contentsOf: $0) }
        }

        mutating func createdAtPart(_ t: Timestamp, into out: inout JSONWriter) {
            if t.millis != createdAt {
                var w = JSONWriter(capacity: 48)
                w.raw(",\"createdAt\":"); w.timestamp(t, utc: true); w.raw("}")
                createdAt = t.millis
                createdAtBytes = w.bytes
            }
            createdAtBytes.withUnsafeBufferPointer { out.bytes.append(contentsOf: $0) }
        }
    }

    /// One sample as a JSON object, keys in a fixed order.
    public static func writeSample(_ stored: StoredSample, to w: inout JSONWriter) {
        var pieces = Pieces()
        withUnsafePointer(to: stored) { writeSample(at: $0, to: &w, pieces: &pieces) }
    }

    /// Through a pointer: the sample's fields are read in place, not copied out with it.
    static func writeSample(at stored: UnsafePointer<StoredSample>, to w: inout JSONWriter, pieces: inout Pieces) {
        w.raw("{\"id\":"); w.uuid(stored.pointee.sample.id)
        pieces.typePart(stored.pointee.sample.type, into: &w)
        w.number(stored.pointee.sample.value)
        pieces.unitPart(stored.pointee.sample.unit, into: &w)
        let startAt = w.bytes.count
        w.timestamp(stored.pointee.sample.start, utc: false)
        let startLength = w.bytes.count - startAt
        w.raw(",\"endDate\":")
        if stored.pointee.sample.end == stored.pointee.sample.start {
            w.appendCopy(of: startAt..<(startAt + startLength))   // an instant: the end is the start
        } else {
            w.timestamp(stored.pointee.sample.end, utc: false)
        }
        pieces.sourcePart(stored.pointee.sample.source, into: &w)
        if let json = stored.pointee.metadataJSON {
            w.rawJSON(json)
        } else {
            let m = stored.pointee.sample.metadata
            w.raw("{")
            for (n, k) in m.keys.sorted().enumerated() {
                if n > 0 { w.raw(",") }
                w.key(k); w.string(m[k]!)
            }
            w.raw("}")
        }
        pieces.createdAtPart(stored.pointee.createdAt, into: &w)
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
        let d: CivilDate
        if let last = lastDay, last.days == days { d = last.date } else {
            d = CivilDate(daysSinceEpoch: days)
            lastDay = (days, d)
        }
        guard (0...9999).contains(d.year) else { string(utc ? t.iso8601UTC : t.iso8601Local); return }
        // "YYYY-MM-DDTHH:MM:SS.mmm" plus "Z" or "±HH:MM", quoted: at most 31 bytes, written in
        // place and appended once.
        var out = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let count = withUnsafeMutableBytes(of: &out) { b -> Int in
            @inline(__always) func put(_ v: Int, _ width: Int, at i: Int) {
                var v = v
                for k in stride(from: i + width - 1, through: i, by: -1) {
                    b[k] = 0x30 + UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
            }
            b[0] = 0x22
            put(d.year, 4, at: 1); b[5] = 0x2D; put(d.month, 2, at: 6); b[8] = 0x2D; put(d.day, 2, at: 9)
            b[11] = 0x54
            put(Int(ms / 3_600_000), 2, at: 12); b[14] = 0x3A; put(Int(ms / 60_000 % 60), 2, at: 15); b[17] = 0x3A
            put(Int(ms / 1000 % 60), 2, at: 18); b[20] = 0x2E; put(Int(ms % 1000), 3, at: 21)
            if off == 0 {
                b[24] = 0x5A; b[25] = 0x22
                return 26
            }
            let a = Int(abs(off))
            b[24] = off < 0 ? 0x2D : 0x2B
            put(a / 3600, 2, at: 25); b[27] = 0x3A; put(a % 3600 / 60, 2, at: 28); b[30] = 0x22
            return 31
        }
        withUnsafeBytes(of: &out) { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Appends again bytes already written (a short range).
    mutating func appendCopy(of range: Range<Int>) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: range.count) { tmp in
            bytes.withUnsafeBufferPointer { src in
                tmp.baseAddress!.initialize(from: src.baseAddress! + range.lowerBound, count: range.count)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(tmp))
        }
    }

    /// Appends a quoted UUID, as `SampleID.description` writes it.
    mutating func uuid(_ id: SampleID) {
        var out = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))   // 38 bytes used
        withUnsafeMutableBytes(of: &out) { b in
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
        withUnsafeBytes(of: &out) { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<38])) }
    }
}
