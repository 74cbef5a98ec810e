#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolLock

/// Queued samples each encoded once, as the JSON object every wire format carries, side by side
/// in one buffer, with each sample's row id and id: a batch on its way from the store to the
/// gateway. The body of a request for any part of it, in any format, is assembled by copying
/// (`body(_:format:envelope:now:)`), so a batch being narrowed down is never encoded again.
///
/// The store appends rows straight from SQLite (`append(rowID:id:value:unit:…)`); samples already
/// in memory go through `append(_:)`. The pieces that repeat from one sample to the next (type,
/// unit, source, import time) are encoded once and copied. Written by one thread, then handed on;
/// after that only `withBody` writes, and only outside the objects (see `headroom`).
///
/// Unsafe on purpose: the storage is a pointer buffer from a pool (`BatchBuffers`), written
/// through `JSONBytes`. A safe form with the same output (a Swift array, bounds-checked appends,
/// no pool: `SafeEncodedBatch` in the tests) takes 1.3-2.2x its CPU time to encode and build
/// bodies (paired, BENCHMARKS.md, "Sync encoder: safe vs unsafe buffers (paired)"), well past
/// the 10 % the unsafe form must be worth; `SafeEncodedBatchTests` pins both to the same bytes.
///
/// `@unchecked Sendable` on that invariant: one writer before the hand-over, and after it only
/// reads of the objects plus `withBody` writing outside them.
public final class EncodedBatch: @unchecked Sendable {
    /// Row ids, in send order.
    public private(set) var rowIDs: [Int64] = []
    /// Sample ids, in send order.
    public private(set) var ids: [SampleID] = []
    /// Versions, in send order: 0 for a measurement, 1 and up for a journal record.
    public private(set) var versions: [Int] = []
    /// Whether each sample is a tombstone (a deleted journal entry).
    public private(set) var tombstones: [Bool] = []
    /// Where each sample's object ends in `storage`; one comma separates neighbours.
    private var ends: [Int] = []
    private var storage: UnsafeMutablePointer<UInt8>
    /// Bytes kept free in front of the first object: a `json` body for the whole batch writes its
    /// head there and its tail after the last object, and goes out from `storage` uncopied.
    static let headroom = 256
    private var used = headroom
    private var capacity: Int

    /// `,"type":…,"hkType":…,"value":` for `typeName`.
    private var typeName: String?
    private var typePiece: [UInt8] = []
    /// `,"unit":…,"startDate":` for the unit `unitText` (UTF-8).
    private var unitText: [UInt8] = []
    private var unitPiece: [UInt8] = []
    /// `,"source":{…},"metadata":` for `source`.
    private var source: SampleSource?
    /// The store's id for `source`, when it came from the store.
    public private(set) var sourceKey: Int64?
    private var sourcePiece: [UInt8] = []
    /// `,"createdAt":"…"}` for `createdAtMillis`.
    private var createdAtMillis: Int64?
    private var createdAtPiece: [UInt8] = []
    /// The last day a timestamp fell on (timestamps in a batch share days).
    private var lastDay: (days: Int64, date: CivilDate)?
    /// Set (to the user id) before the first append: each sample is encoded as a FHIR R4
    /// resource (`FHIRObservation`) for the gateway's `fhir` formats, not as healthspool's object.
    public var fhirUser: String?

    public init(capacity: Int = 64 << 10) {
        (storage, self.capacity) = BatchBuffers.take(atLeast: max(capacity, 256) + Self.headroom)
    }

    /// Samples already in memory, encoded as the store encodes its rows.
    public convenience init(_ samples: some Collection<StoredSample>) {
        self.init(capacity: samples.count * 512 + 256)
        for s in samples { append(s) }
    }

    deinit { BatchBuffers.give(storage, capacity: capacity) }

    public var count: Int { rowIDs.count }
    public var isEmpty: Bool { rowIDs.isEmpty }

    /// Sets the type of the samples appended next.
    public func setType(_ type: String) {
        guard type != typeName else { return }
        var w = JSONWriter(capacity: 96)
        w.raw(",\"type\":"); w.string(type)
        if let id = DataType.lookup(type)?.hkIdentifier, id.hasPrefix("HK") { w.raw(",\"hkType\":"); w.string(id) }
        w.raw(",\"value\":")
        typeName = type
        typePiece = w.bytes
    }

    /// Sets the source of the samples appended next; `key` is the store's id for it (nil for a
    /// sample from memory), so the store's rows compare ids instead of sources.
    public func setSource(_ s: SampleSource, key: Int64?) {
        sourceKey = key
        guard s != source || sourcePiece.isEmpty else { return }
        var w = JSONWriter(capacity: 128)
        w.raw(",\"source\":{\"name\":"); w.string(s.name)
        if let v = s.version { w.raw(",\"version\":"); w.string(v) }
        if let d = s.device { w.raw(",\"device\":"); w.string(d) }
        w.raw("},\"metadata\":")
        source = s
        sourcePiece = w.bytes
    }

    /// Appends a sample in memory.
    public func append(_ stored: StoredSample) {
        let s = stored.sample
        setType(s.type)
        setSource(s.source, key: nil)
        var metadata = JSONWriter(capacity: 64)
        metadata.sortedObject(s.metadata)
        var unit = s.unit
        unit.withUTF8 { u in
            metadata.bytes.withUnsafeBytes { m in
                append(rowID: stored.rowID, id: s.id, value: s.value, unit: UnsafeRawBufferPointer(u), start: s.start, end: s.end,
                       metadata: m, createdAt: stored.createdAt.millis)
            }
        }
    }

    /// Appends one sample of the type and source set last. `unit` is its UTF-8 text, `metadata`
    /// its stored JSON object text (empty for none). A journal record carries its `version`
    /// (0: none, a measurement) and whether it is a tombstone (`deleted`).
    public func append(rowID: Int64, id: SampleID, value: Double, unit: UnsafeRawBufferPointer, start: Timestamp, end: Timestamp,
                       metadata: UnsafeRawBufferPointer, createdAt: Int64, version: Int = 0, deleted: Bool = false) {
        if let fhirUser {
            appendFHIR(rowID: rowID, id: id, value: value, unit: String(decoding: unit, as: UTF8.self), start: start, end: end,
                       metadata: String(decoding: metadata, as: UTF8.self), user: fhirUser, version: version, deleted: deleted)
            return
        }
        if unitPiece.isEmpty || unit.count != unitText.count
            || (unit.count > 0 && unitText.withUnsafeBytes { memcmp($0.baseAddress!, unit.baseAddress!, unit.count) } != 0) {
            var w = JSONWriter(capacity: 48)
            w.raw(",\"unit\":"); w.string(String(decoding: unit, as: UTF8.self)); w.raw(",\"startDate\":")
            unitText = Array(unit)
            unitPiece = w.bytes
        }
        if createdAt != createdAtMillis {
            var w = JSONWriter(capacity: 48)
            w.raw(",\"createdAt\":"); w.timestamp(Timestamp(millis: createdAt), utc: true); w.raw("}")
            createdAtMillis = createdAt
            createdAtPiece = w.bytes
        }
        let number = JSONBytes.isPlainInteger(value) ? nil : JSONBytes.nonIntegerText(value)
        // Everything this sample writes, at most: the fixed parts, two timestamps, the number.
        reserve(typePiece.count + unitPiece.count + sourcePiece.count + createdAtPiece.count + metadata.count
                + (number?.utf8.count ?? 20) + 2 * JSONBytes.maxTimestamp + 64 + (version > 0 ? 48 : 0))
        if !ends.isEmpty { put(0x2C) }
        put("{\"id\":")
        JSONBytes.uuid(id, into: storage + used)
        used += JSONBytes.uuidLength
        put(typePiece)
        if var number {
            number.withUTF8 { put(UnsafeRawBufferPointer($0)) }
        } else {
            used += JSONBytes.integer(Int64(value), into: storage + used)
        }
        put(unitPiece)
        let startAt = used
        used += JSONBytes.timestamp(start, utc: false, lastDay: &lastDay, into: storage + used)
        let startLength = used - startAt
        put(",\"endDate\":")
        // `==` on timestamps compares instants: the end's text is the start's only when its
        // offset is the same too (F1: an end at the same instant in another offset was sent
        // with the start's offset).
        if end.millis == start.millis && end.utcOffsetSeconds == start.utcOffsetSeconds {
            (storage + used).update(from: storage + startAt, count: startLength)   // an instant: the end is the start
            used += startLength
        } else {
            used += JSONBytes.timestamp(end, utc: false, lastDay: &lastDay, into: storage + used)
        }
        put(sourcePiece)
        if metadata.isEmpty { put("{}") } else { put(metadata) }
        if version > 0 {
            put(",\"version\":")
            used += JSONBytes.integer(Int64(version), into: storage + used)
            if deleted { put(",\"deleted\":true") }
        }
        put(createdAtPiece)
        ends.append(used)
        rowIDs.append(rowID)
        ids.append(id)
        versions.append(version)
        tombstones.append(deleted && version > 0)
    }

    /// Appends a sample as a FHIR resource: an Observation by `FHIRMapping`, a journal record by
    /// `FHIRObservation.journalRecord`. A tombstone's value is never sent (its record is the deletion).
    private func appendFHIR(rowID: Int64, id: SampleID, value: Double, unit: String, start: Timestamp, end: Timestamp,
                            metadata: String, user: String, version: Int, deleted: Bool) {
        let type = typeName ?? ""
        let resource: JSONValue = version > 0
            ? FHIRObservation.journalRecord(id: id, type: type, value: value, unit: unit, start: start, end: end,
                                            metadata: metadata, subject: .user(user))
            : FHIRObservation.sample(id: id, type: type, value: value, unit: unit, start: start, end: end,
                                     source: source?.name, subject: .user(user))
        var w = JSONWriter(capacity: 512)
        w.value(resource)
        reserve(w.bytes.count + 1)
        if !ends.isEmpty { put(0x2C) }
        put(w.bytes)
        ends.append(used)
        rowIDs.append(rowID)
        ids.append(id)
        versions.append(version)
        tombstones.append(deleted && version > 0)
    }

    /// The request body for samples `range` of the batch.
    public func body(_ range: Range<Int>, format: GatewayFormat, envelope: BatchEnvelope, now: Timestamp) -> [UInt8] {
        withBody(range, format: format, envelope: envelope, now: now) { Array($0) }
    }

    /// Calls `use` with the request body for samples `range` of the batch, assembled in a kept
    /// buffer (valid only during the call): no allocation per request.
    public func withBody<R, E: Error>(_ range: Range<Int>, format: GatewayFormat, envelope: BatchEnvelope, now: Timestamp,
                                      _ use: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        switch format {
        case .fhir, .fhirV3:
            // The resource is the record's value: no healthspool envelope around it.
            return try records(range, RecordPieces(format: format, envelope: envelope, valueOpen: Array(
                (format == .fhir ? ",\"value\":" : ",\"value\":{\"type\":\"JSON\",\"data\":").utf8)),
                prefix: format == .fhir ? Array("{\"records\":[".utf8) : [], separator: format == .fhir ? 0x2C : 0x0A,
                suffix: format == .fhir ? Array("]}".utf8) : [], use)
        case .json:
            var head = JSONWriter(capacity: 128)
            head.raw("{\"deviceId\":"); head.string(envelope.deviceId)
            head.raw(",\"userId\":"); head.string(envelope.userId)
            head.raw(",\"samples\":[")
            var tail = JSONWriter(capacity: 96)
            tail.raw("],\"timestamp\":"); tail.timestamp(now, utc: true)
            tail.raw(",\"appVersion\":"); tail.string(envelope.appVersion)
            tail.raw("}")
            // The objects lie comma-separated already: one copy, or none for the whole batch.
            let objects = range.isEmpty ? 0..<0 : start(range.lowerBound)..<ends[range.upperBound - 1]
            if range == 0..<count, !range.isEmpty, head.bytes.count <= Self.headroom, used + tail.bytes.count <= capacity {
                let base = storage + Self.headroom - head.bytes.count
                head.bytes.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
                tail.bytes.withUnsafeBufferPointer { (storage + used).update(from: $0.baseAddress!, count: $0.count) }
                return try use(UnsafeRawBufferPointer(start: base, count: head.bytes.count + (used - Self.headroom) + tail.bytes.count))
            }
            return try assemble(prefix: head.bytes, suffix: tail.bytes, extra: objects.count, use) { out in
                out.update(from: storage + objects.lowerBound, count: objects.count)
                return objects.count
            }
        case .confluentV2:
            var value = JSONWriter(capacity: 256)
            value.raw(",\"value\":")
            Self.valueHead(envelope, now: now, into: &value)
            return try records(range, RecordPieces(format: format, envelope: envelope, valueOpen: value.bytes),
                               prefix: Array("{\"records\":[".utf8), separator: 0x2C, suffix: Array("]}".utf8), use)
        case .confluentV3:
            var value = JSONWriter(capacity: 256)
            value.raw(",\"value\":{\"type\":\"JSON\",\"data\":")
            Self.valueHead(envelope, now: now, into: &value)
            return try records(range, RecordPieces(format: format, envelope: envelope, valueOpen: value.bytes),
                               prefix: [], separator: 0x0A, suffix: [], use)
        }
    }

    /// A record value up to its sample: `{"deviceId":…,"userId":…,"timestamp":…,"appVersion":…,"sample":`.
    static func valueHead(_ envelope: BatchEnvelope, now: Timestamp, into w: inout JSONWriter) {
        w.raw("{\"deviceId\":"); w.string(envelope.deviceId)
        w.raw(",\"userId\":"); w.string(envelope.userId)
        w.raw(",\"timestamp\":"); w.timestamp(now, utc: true)
        w.raw(",\"appVersion\":"); w.string(envelope.appVersion)
        w.raw(",\"sample\":")
    }

    /// One record per sample (`RecordPieces`), records separated by `separator`.
    private func records<R, E: Error>(_ range: Range<Int>, _ p: RecordPieces, prefix: [UInt8], separator: UInt8,
                                      suffix: [UInt8], _ use: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var size = max(0, range.count - 1)
        for i in range {
            size += p.keyOpen.count + p.keyClose.count
            size += versions[i] > 0 ? p.entryKeyHead.count + JSONBytes.uuidLength + 1 : p.userKey.count
            size += tombstones[i] ? p.tombstoneTail.count : p.valueOpen.count + (ends[i] - start(i)) + p.close.count
        }
        return try assemble(prefix: prefix, suffix: suffix, extra: size, use) { out in
            var at = 0
            func put(_ bytes: [UInt8]) {
                bytes.withUnsafeBufferPointer { if let b = $0.baseAddress { (out + at).update(from: b, count: $0.count) } }
                at += bytes.count
            }
            for i in range {
                if i > range.lowerBound { out[at] = separator; at += 1 }
                put(p.keyOpen)
                if versions[i] > 0 {
                    // A versioned journal record: keyed by user and record id, so a compacted
                    // topic keeps its latest version (or drops it after its tombstone).
                    put(p.entryKeyHead)
                    JSONBytes.uuid(ids[i], into: out + at)
                    at += JSONBytes.uuidLength
                    out[at] = 0x7D; at += 1
                } else {
                    put(p.userKey)
                }
                put(p.keyClose)
                if tombstones[i] {
                    put(p.tombstoneTail)
                } else {
                    put(p.valueOpen)
                    let s = start(i), n = ends[i] - s
                    (out + at).update(from: storage + s, count: n); at += n
                    put(p.close)
                }
            }
            return at
        }
    }

    /// `prefix`, `extra` bytes written by `fill` (which returns how many it wrote), `suffix`, in
    /// a kept buffer handed to `use`.
    private func assemble<R, E: Error>(prefix: [UInt8], suffix: [UInt8], extra: Int, _ use: (UnsafeRawBufferPointer) throws(E) -> R,
                                       fill: (UnsafeMutablePointer<UInt8>) -> Int) throws(E) -> R {
        let (base, capacity) = BatchBuffers.take(atLeast: prefix.count + extra + suffix.count)
        defer { BatchBuffers.give(base, capacity: capacity) }
        prefix.withUnsafeBufferPointer { if let p = $0.baseAddress { base.update(from: p, count: $0.count) } }
        let middle = fill(base + prefix.count)
        suffix.withUnsafeBufferPointer { if let p = $0.baseAddress { (base + prefix.count + middle).update(from: p, count: $0.count) } }
        return try use(UnsafeRawBufferPointer(start: base, count: prefix.count + middle + suffix.count))
    }

    /// The bytes of sample `i`'s object (a Confluent record wraps it in a few more).
    public func byteCount(of i: Int) -> Int { ends[i] - start(i) }

    /// Where sample `i`'s object starts.
    @inline(__always) private func start(_ i: Int) -> Int { i == 0 ? Self.headroom : ends[i - 1] + 1 }

    /// Makes room for `n` more bytes.
    private func reserve(_ n: Int) {
        guard used + n > capacity else { return }
        let (bigger, grown) = BatchBuffers.take(atLeast: max(capacity * 2, used + n))
        bigger.update(from: storage, count: used)
        BatchBuffers.give(storage, capacity: capacity)
        storage = bigger
        capacity = grown
    }

    // The writers below assume `reserve` made room.
    @inline(__always) private func put(_ byte: UInt8) {
        storage[used] = byte
        used += 1
    }

    @inline(__always) private func put(_ s: StaticString) {
        (storage + used).update(from: s.utf8Start, count: s.utf8CodeUnitCount)
        used += s.utf8CodeUnitCount
    }

    @inline(__always) private func put(_ bytes: UnsafeRawBufferPointer) {
        guard let p = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(storage + used).copyMemory(from: p, byteCount: bytes.count)
        used += bytes.count
    }

    @inline(__always) private func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { put($0) }
    }
}

/// The fixed pieces of a Confluent record: `keyOpen` + key + `keyClose`, then `valueOpen` +
/// the sample's object + `close`, or `tombstoneTail` for a deleted journal entry (the key with a
/// null value, as compacted topics expect; v3 leaves the value out, which the proxy sends as null).
/// A measurement's key is the user id (`"alice"`); a journal record's is `{"userId":…,"id":…}`.
struct RecordPieces {
    let keyOpen: [UInt8], userKey: [UInt8], entryKeyHead: [UInt8], keyClose: [UInt8]
    let valueOpen: [UInt8], close: [UInt8], tombstoneTail: [UInt8]

    init(format: GatewayFormat, envelope: BatchEnvelope, valueOpen: [UInt8]) {
        var user = JSONWriter(capacity: 64)
        user.string(envelope.userId)
        userKey = user.bytes
        var head = JSONWriter(capacity: 64)
        head.raw("{\"userId\":"); head.string(envelope.userId); head.raw(",\"id\":")
        entryKeyHead = head.bytes
        self.valueOpen = valueOpen
        // A FHIR resource is the value itself: one brace fewer to close.
        let fhir = format.carriesFHIR
        if format.wire == .confluentV3 {
            keyOpen = Array("{\"key\":{\"type\":\"JSON\",\"data\":".utf8)
            keyClose = Array("}".utf8)
            close = Array((fhir ? "}}" : "}}}").utf8)
            tombstoneTail = Array("}".utf8)
        } else {
            keyOpen = Array("{\"key\":".utf8)
            keyClose = []
            close = Array((fhir ? "}" : "}}").utf8)
            tombstoneTail = Array(",\"value\":null}".utf8)
        }
    }
}

/// Buffers of batches gone, kept for the next ones. A sender reads a batch of the same size every
/// few milliseconds; allocating ~240 KB for each made malloc grow and trim its arena every time
/// (page faults and `mprotect` calls: ~7 system calls a batch).
enum BatchBuffers {
    /// `@unchecked Sendable`: a kept buffer belongs to the pool alone (nobody else holds its
    /// pointer) until `take` hands it to exactly one batch.
    private struct Buffer: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
    }
    /// At most this many are kept (a sender has two or three batches and a body alive at once),
    /// none larger than `largest`.
    private static let kept = 8
    private static let largest = 4 << 20
    private static let free = Lock<[Buffer]>([])

    /// A kept buffer of at least `n` bytes, or a new one.
    static func take(atLeast n: Int) -> (UnsafeMutablePointer<UInt8>, Int) {
        let found: Buffer? = free.withLock { buffers in
            guard let i = buffers.firstIndex(where: { $0.capacity >= n }) else { return nil }
            return buffers.remove(at: i)
        }
        if let found { return (found.base, found.capacity) }
        return (.allocate(capacity: n), n)
    }

    /// Keeps a buffer for later, or frees it when enough are kept.
    static func give(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        let kept = free.withLock { buffers -> Bool in
            guard buffers.count < Self.kept, capacity <= largest else { return false }
            buffers.append(Buffer(base: base, capacity: capacity))
            return true
        }
        if !kept { base.deallocate() }
    }
}
