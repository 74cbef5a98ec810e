@testable import HealthSpoolCore

/// What the store hands an encoder for one row (`SampleStore.queuedBatch`): the raw column
/// values, unit and metadata as UTF-8 text.
struct EncoderRow {
    var rowID: Int64
    var id: SampleID
    var value: Double
    var unit: [UInt8]
    var start: Timestamp
    var end: Timestamp
    var sourceKey: Int64
    var metadata: [UInt8]
    var createdAt: Int64
    var version = 0
    var deleted = false
}

/// The two forms of the sync encoder, for the test and the benchmark that pair them.
protocol EncoderForm: AnyObject {
    init(capacity: Int)
    var count: Int { get }
    var sourceKey: Int64? { get }
    func setType(_ type: String)
    func setSource(_ s: SampleSource, key: Int64?)
    func append(rowID: Int64, id: SampleID, value: Double, unit: UnsafeRawBufferPointer, start: Timestamp, end: Timestamp,
                metadata: UnsafeRawBufferPointer, createdAt: Int64, version: Int, deleted: Bool)
    func withBody<R, E: Error>(_ range: Range<Int>, format: GatewayFormat, envelope: BatchEnvelope, now: Timestamp,
                               _ use: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R
}

extension EncodedBatch: EncoderForm {}
extension SafeEncodedBatch: EncoderForm {}

extension EncoderForm {
    /// Appends `rows` as the store does: the source set when its key changes.
    func fill(_ rows: ArraySlice<EncoderRow>, sources: [SampleSource]) {
        for r in rows {
            if sourceKey != r.sourceKey { setSource(sources[Int(r.sourceKey)], key: r.sourceKey) }
            r.unit.withUnsafeBytes { u in
                r.metadata.withUnsafeBytes { m in
                    append(rowID: r.rowID, id: r.id, value: r.value, unit: u, start: r.start, end: r.end, metadata: m,
                           createdAt: r.createdAt, version: r.version, deleted: r.deleted)
                }
            }
        }
    }

    func bytes(_ range: Range<Int>, format: GatewayFormat, envelope: BatchEnvelope, now: Timestamp) -> [UInt8] {
        withBody(range, format: format, envelope: envelope, now: now) { Array($0) }
    }
}

/// Rows of every kind the encoder meets, deterministic from `seed`.
enum EncoderCorpus {
    static let sources = [
        SampleSource(name: "Watch", version: "10.1", device: "<<HKDevice: 0x1>, name:Apple Watch>"),
        SampleSource(name: "iPhone \"de\" Zoë"),
        SampleSource(name: "Scale", device: "tab\there"),
    ]

    static func id(_ high: UInt64, _ low: UInt64) -> SampleID {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { SampleID($0) }
    }

    static func rows(_ n: Int, seed: UInt64 = 1, varied: Bool = true) -> [EncoderRow] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 17
        }
        let units: [[UInt8]] = [Array("count/min".utf8), Array("kcal".utf8), Array("mg/dL".utf8), Array("µ\"S\\".utf8), []]
        let metadata: [[UInt8]] = [[], Array(#"{"HKMetadataKeyHeartRateMotionContext":"1"}"#.utf8),
                                   Array(#"{"a":"é\"\\","b":"\u0001"}"#.utf8)]
        let offsets: [Int32] = [0, 3600, -18_000, 19_800, -34_200, 50_400]
        return (0..<n).map { i in
            let r = next()
            var row = EncoderRow(
                rowID: Int64(i + 1), id: id(next(), next()),
                value: Double(60 + Int(r % 100)), unit: units[0],
                start: Timestamp(millis: 1_767_261_600_000 + Int64(i) * 5_000 + Int64(r % 1000), utcOffsetSeconds: 3600),
                end: Timestamp(millis: 0), sourceKey: Int64(i / 50 % 2), metadata: [], createdAt: 1_767_300_000_000 + Int64(i / 100))
            row.end = row.start
            guard varied else { return row }
            let pick = Int(r % 29)
            row.unit = units[pick % units.count]
            row.metadata = metadata[pick % metadata.count]
            row.sourceKey = Int64(pick % sources.count)
            let offset = offsets[pick % offsets.count]
            row.start = Timestamp(millis: row.start.millis, utcOffsetSeconds: offset)
            row.end = pick % 3 == 0 ? row.start : Timestamp(millis: row.start.millis + Int64(r % 600_000), utcOffsetSeconds: offset)
            switch pick {
            case 1: row.value = 0.1 + Double(r % 1000) / 7
            case 2: row.value = -Double(r % 5000)
            case 3: row.value = .nan
            case 4: row.value = 1e300
            case 5: row.value = -0.0
            case 6: row.start = Timestamp(millis: -62_200_000_000_000 - Int64(r % 1_000_000_000), utcOffsetSeconds: offset)   // before year 0
            case 7: row.end = Timestamp(millis: 253_402_300_800_000 + Int64(r % 1_000_000), utcOffsetSeconds: offset)   // past 9999
            case 8, 9: row.version = 1 + Int(r % 3); row.deleted = pick == 9
            case 10: row.version = 1_000_000_007
            case 11: row.createdAt = -1
            default: break
            }
            return row
        }
    }
}
