@testable import HealthSpoolCore

/// `EncodedBatch` with its storage in a Swift array: every write is a bounds-checked append or
/// subscript, no buffer pool, no pointer arithmetic. Same API, byte-identical bodies. Kept here
/// for `SafeEncodedBatchTests` and `EncoderBenchmark` only: it measured 1.3-2.2x the pointer
/// form's CPU time (BENCHMARKS.md, "Sync encoder: safe vs unsafe buffers (paired)"), so
/// production keeps `EncodedBatch`.
final class SafeEncodedBatch: @unchecked Sendable {
    private(set) var rowIDs: [Int64] = []
    private(set) var ids: [SampleID] = []
    private(set) var versions: [Int] = []
    private(set) var tombstones: [Bool] = []
    /// Where each sample's object ends in `storage`; one comma separates neighbours.
    private var ends: [Int] = []
    /// `headroom` bytes kept free, then the objects, comma-separated.
    private var storage: [UInt8]
    static let headroom = 256

    private var typeName: String?
    private var typePiece: [UInt8] = []
    private var unitText: [UInt8] = []
    private var unitPiece: [UInt8] = []
    private var source: SampleSource?
    private(set) var sourceKey: Int64?
    private var sourcePiece: [UInt8] = []
    private var createdAtMillis: Int64?
    private var createdAtPiece: [UInt8] = []
    private var lastDay: (days: Int64, date: CivilDate)?

    init(capacity: Int = 64 << 10) {
        storage = []
        storage.reserveCapacity(max(capacity, 256) + Self.headroom)
        storage.append(contentsOf: repeatElement(0, count: Self.headroom))
    }

    convenience init(_ samples: some Collection<StoredSample>) {
        self.init(capacity: samples.count * 512 + 256)
        for s in samples { append(s) }
    }

    var count: Int { rowIDs.count }
    var isEmpty: Bool { rowIDs.isEmpty }

    func setType(_ type: String) {
        guard type != typeName else { return }
        var w = JSONWriter(capacity: 96)
        w.raw(",\"type\":"); w.string(type)
        if let id = DataType.lookup(type)?.hkIdentifier, id.hasPrefix("HK") { w.raw(",\"hkType\":"); w.string(id) }
        w.raw(",\"value\":")
        typeName = type
        typePiece = w.bytes
    }

    func setSource(_ s: SampleSource, key: Int64?) {
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

    func append(_ stored: StoredSample) {
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

    func append(rowID: Int64, id: SampleID, value: Double, unit: UnsafeRawBufferPointer, start: Timestamp, end: Timestamp,
                metadata: UnsafeRawBufferPointer, createdAt: Int64, version: Int = 0, deleted: Bool = false) {
        if unitPiece.isEmpty || !unitText.elementsEqual(unit) {
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
        // The storage is moved out for the writes and back after: one access to the property.
        var out = storage
        storage = []
        var day = lastDay
        if !ends.isEmpty { out.append(0x2C) }
        out.append(contentsOf: "{\"id\":".utf8)
        SafeJSONBytes.uuid(id, into: &out)
        out.append(contentsOf: typePiece)
        if JSONBytes.isPlainInteger(value) {
            SafeJSONBytes.integer(Int64(value), into: &out)
        } else {
            out.append(contentsOf: JSONBytes.nonIntegerText(value).utf8)
        }
        out.append(contentsOf: unitPiece)
        SafeJSONBytes.timestamp(start, utc: false, lastDay: &day, into: &out)
        out.append(contentsOf: ",\"endDate\":".utf8)
        // An instant's end is written again rather than copied from `out` (a slice of `out`
        // appended to it would copy the whole storage first).
        SafeJSONBytes.timestamp(end, utc: false, lastDay: &day, into: &out)
        out.append(contentsOf: sourcePiece)
        if metadata.isEmpty { out.append(contentsOf: "{}".utf8) } else { out.append(contentsOf: metadata) }
        if version > 0 {
            out.append(contentsOf: ",\"version\":".utf8)
            SafeJSONBytes.integer(Int64(version), into: &out)
            if deleted { out.append(contentsOf: ",\"deleted\":true".utf8) }
        }
        out.append(contentsOf: createdAtPiece)
        ends.append(out.count)
        storage = out
        lastDay = day
        rowIDs.append(rowID)
        ids.append(id)
        versions.append(version)
        tombstones.append(deleted && version > 0)
    }

    func body(_ range: Range<Int>, format: GatewayFormat, envelope: BatchEnvelope, now: Timestamp) -> [UInt8] {
        withBody(range, format: format, envelope: envelope, now: now) { Array($0) }
    }

    func withBody<R, E: Error>(_ range: Range<Int>, format: GatewayFormat, envelope: BatchEnvelope, now: Timestamp,
                               _ use: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        switch format {
        case .json:
            var head = JSONWriter(capacity: 128)
            head.raw("{\"deviceId\":"); head.string(envelope.deviceId)
            head.raw(",\"userId\":"); head.string(envelope.userId)
            head.raw(",\"samples\":[")
            var tail = JSONWriter(capacity: 96)
            tail.raw("],\"timestamp\":"); tail.timestamp(now, utc: true)
            tail.raw(",\"appVersion\":"); tail.string(envelope.appVersion)
            tail.raw("}")
            let objects = range.isEmpty ? 0..<0 : start(range.lowerBound)..<ends[range.upperBound - 1]
            if range == 0..<count, !range.isEmpty, head.bytes.count <= Self.headroom {
                // The whole batch: the head goes into the room in front, the tail after the last
                // object (taken off again), and the body is sent from the storage uncopied.
                let from = Self.headroom - head.bytes.count, used = storage.count
                storage.replaceSubrange(from..<Self.headroom, with: head.bytes)
                storage.append(contentsOf: tail.bytes)
                defer { storage.removeLast(tail.bytes.count) }
                return try Self.lend(storage, from..<used + tail.bytes.count, use)
            }
            var out: [UInt8] = []
            out.reserveCapacity(head.bytes.count + objects.count + tail.bytes.count)
            out.append(contentsOf: head.bytes)
            out.append(contentsOf: storage[objects])
            out.append(contentsOf: tail.bytes)
            return try Self.lend(out, out.indices, use)
        case .confluentV2:
            var value = JSONWriter(capacity: 256)
            value.raw(",\"value\":")
            EncodedBatch.valueHead(envelope, now: now, into: &value)
            return try records(range, RecordPieces(format: format, envelope: envelope, valueOpen: value.bytes),
                               prefix: Array("{\"records\":[".utf8), separator: 0x2C, suffix: Array("]}".utf8), use)
        case .confluentV3:
            var value = JSONWriter(capacity: 256)
            value.raw(",\"value\":{\"type\":\"JSON\",\"data\":")
            EncodedBatch.valueHead(envelope, now: now, into: &value)
            return try records(range, RecordPieces(format: format, envelope: envelope, valueOpen: value.bytes),
                               prefix: [], separator: 0x0A, suffix: [], use)
        case .fhir, .fhirV3:
            preconditionFailure("the safe form pins healthspool's own formats (GatewayFormat.native); FHIRBatchTests test the FHIR ones")
        }
    }

    private func records<R, E: Error>(_ range: Range<Int>, _ p: RecordPieces, prefix: [UInt8], separator: UInt8,
                                      suffix: [UInt8], _ use: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var size = prefix.count + suffix.count + max(0, range.count - 1)
        for i in range {
            size += p.keyOpen.count + p.keyClose.count
            size += versions[i] > 0 ? p.entryKeyHead.count + JSONBytes.uuidLength + 1 : p.userKey.count
            size += tombstones[i] ? p.tombstoneTail.count : p.valueOpen.count + (ends[i] - start(i)) + p.close.count
        }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        out.append(contentsOf: prefix)
        for i in range {
            if i > range.lowerBound { out.append(separator) }
            out.append(contentsOf: p.keyOpen)
            if versions[i] > 0 {
                out.append(contentsOf: p.entryKeyHead)
                SafeJSONBytes.uuid(ids[i], into: &out)
                out.append(0x7D)
            } else {
                out.append(contentsOf: p.userKey)
            }
            out.append(contentsOf: p.keyClose)
            if tombstones[i] {
                out.append(contentsOf: p.tombstoneTail)
            } else {
                out.append(contentsOf: p.valueOpen)
                out.append(contentsOf: storage[start(i)..<ends[i]])
                out.append(contentsOf: p.close)
            }
        }
        out.append(contentsOf: suffix)
        return try Self.lend(out, out.indices, use)
    }

    /// Calls `use` with the bytes `range` of `bytes` (`withUnsafeBytes` rethrows untyped).
    private static func lend<R, E: Error>(_ bytes: [UInt8], _ range: Range<Int>, _ use: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try bytes.withUnsafeBytes { all in Result { () throws(E) in try use(UnsafeRawBufferPointer(rebasing: all[range])) } }.get()
    }

    @inline(__always) private func start(_ i: Int) -> Int { i == 0 ? Self.headroom : ends[i - 1] + 1 }
}

/// `JSONBytes` appending to an array: subscripts and appends only.
enum SafeJSONBytes {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    private static let digitPairs: [UInt8] = {
        var pairs: [UInt8] = []
        for i in 0..<100 { pairs.append(UInt8(0x30 + i / 10)); pairs.append(UInt8(0x30 + i % 10)) }
        return pairs
    }()

    /// Appends `id` as a quoted UUID.
    static func uuid(_ id: SampleID, into out: inout [UInt8]) {
        let hex = Self.hex
        var at = out.count
        out.append(contentsOf: repeatElement(0, count: JSONBytes.uuidLength))
        out[at] = 0x22; at += 1
        for i in 0..<16 {
            if i == 4 || i == 6 || i == 8 || i == 10 { out[at] = 0x2D; at += 1 }
            let v = UInt8(truncatingIfNeeded: (i < 8 ? id.high >> (56 - 8 * i) : id.low >> (56 - 8 * (i - 8))))
            out[at] = hex[Int(v >> 4)]; out[at + 1] = hex[Int(v & 0xf)]
            at += 2
        }
        out[at] = 0x22
    }

    /// Appends a quoted RFC 3339 timestamp, as `JSONBytes.timestamp` writes it.
    static func timestamp(_ t: Timestamp, utc: Bool, lastDay: inout (days: Int64, date: CivilDate)?, into out: inout [UInt8]) {
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
            out.append(0x22)
            out.append(contentsOf: (utc ? t.iso8601UTC : t.iso8601Local).utf8.prefix(JSONBytes.maxTimestamp - 2))
            out.append(0x22)
            return
        }
        let pairs = digitPairs
        let b = out.count
        out.append(contentsOf: repeatElement(0, count: off == 0 ? 26 : 31))
        func two(_ v: Int, at i: Int, _ out: inout [UInt8]) {
            out[b + i] = pairs[2 * v]
            out[b + i + 1] = pairs[2 * v + 1]
        }
        let msInt = Int(ms), second = msInt / 1000
        out[b] = 0x22
        two(d.year / 100, at: 1, &out); two(d.year % 100, at: 3, &out); out[b + 5] = 0x2D; two(d.month, at: 6, &out)
        out[b + 8] = 0x2D; two(d.day, at: 9, &out)
        out[b + 11] = 0x54
        two(second / 3600, at: 12, &out); out[b + 14] = 0x3A; two(second / 60 % 60, at: 15, &out); out[b + 17] = 0x3A
        two(second % 60, at: 18, &out)
        out[b + 20] = 0x2E; out[b + 21] = 0x30 + UInt8(truncatingIfNeeded: msInt % 1000 / 100); two(msInt % 100, at: 22, &out)
        if off == 0 {
            out[b + 24] = 0x5A; out[b + 25] = 0x22
            return
        }
        let a = Int(abs(off))
        out[b + 24] = off < 0 ? 0x2D : 0x2B
        two(a / 3600 % 100, at: 25, &out); out[b + 27] = 0x3A; two(a % 3600 / 60, at: 28, &out); out[b + 30] = 0x22
    }

    /// Appends an integer.
    static func integer(_ v: Int64, into out: inout [UInt8]) {
        if v < 0 { out.append(0x2D) }
        var n = v.magnitude, count = 1
        var rest = n / 10
        while rest > 0 { count += 1; rest /= 10 }
        let b = out.count
        out.append(contentsOf: repeatElement(0, count: count))
        var i = b + count - 1
        repeat {
            out[i] = 0x30 + UInt8(n % 10)
            n /= 10
            i -= 1
        } while n > 0
    }
}

extension GatewayFormat {
    /// The formats whose records carry healthspool's own objects (the FHIR ones carry resources).
    static let native: [GatewayFormat] = [.json, .confluentV2, .confluentV3]
}
