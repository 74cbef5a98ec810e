/// Where a sample came from. The device string is kept but is never part of identity: Apple
/// exports print an object address in it that changes from one export to the next.
public struct SampleSource: Hashable, Sendable {
    public var name: String
    public var version: String?
    public var device: String?

    public init(name: String, version: String? = nil, device: String? = nil) {
        self.name = name
        self.version = version
        self.device = device
    }
}

/// A stable 128-bit sample id, shown as a UUID (version nibble 8, "custom").
public struct SampleID: Hashable, Sendable, CustomStringConvertible {
    /// The first and last eight bytes as big-endian numbers (kept inline: no allocation per id).
    public let high: UInt64
    public let low: UInt64

    /// The sixteen bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Calls `body` with the sixteen bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var be = (high.bigEndian, low.bigEndian)
        return try Swift.withUnsafeBytes(of: &be) { try body($0) }
    }

    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        // Read inside the closure: the pointer is valid only there (the web fuzz target's first
        // finding, W1: it escaped, and AddressSanitizer saw a read of the freed array).
        self = bytes.withUnsafeBytes { SampleID($0) }
    }

    /// The id in the first sixteen of `raw`.
    public init(_ raw: UnsafeRawBufferPointer) {
        precondition(raw.count >= 16)
        high = UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
        low = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    /// The canonical lowercase UUID string.
    public var description: String {
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (i, b) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(0x2D) }
            out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses the UUID string form.
    public init?(string: String) {
        let hex = string.utf8.filter { $0 != 0x2D }
        guard hex.count == 32 else { return nil }
        var out = [UInt8]()
        var it = hex.makeIterator()
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        while let hi = it.next(), let lo = it.next() {
            guard let h = nibble(hi), let l = nibble(lo) else { return nil }
            out.append(h << 4 | l)
        }
        self.init(bytes: out)
    }
}

/// One health measurement, normalized: registry type, value in the type's canonical unit,
/// interval, source and metadata.
public struct Sample: Hashable, Sendable {
    /// Registry name (`heartRate`), or the HealthKit identifier for types outside the registry.
    public var type: String
    public var value: Double
    public var unit: String
    public var start: Timestamp
    public var end: Timestamp
    public var source: SampleSource
    /// Metadata as key/value strings, sorted by key when encoded.
    public var metadata: [String: String]
    /// Whether a later export may revise the value of this interval (a daily step total that
    /// grows). A revisable sample's id leaves the value out, so the revision replaces it.
    public var revisable: Bool
    /// The stable id, derived from the identifying content (see `SampleIdentity`).
    public private(set) var id: SampleID

    public init(type: String, value: Double, unit: String, start: Timestamp, end: Timestamp? = nil,
                source: SampleSource, metadata: [String: String] = [:], revisable: Bool = false) {
        self.type = type
        self.value = value
        self.unit = unit
        self.start = start
        self.end = end ?? start
        self.source = source
        self.metadata = metadata
        self.revisable = revisable
        self.id = SampleIdentity.id(type: type, start: start.millis, end: (end ?? start).millis,
                                    value: revisable ? nil : value, unit: unit, sourceName: source.name)
    }

    /// A sample read back from storage, with the id it was stored under (derived from the same
    /// fields when it was first stored): reading a queue back does not hash every sample again.
    public init(storedID id: SampleID, type: String, value: Double, unit: String, start: Timestamp, end: Timestamp,
                source: SampleSource, metadata: [String: String] = [:], revisable: Bool = false) {
        self.type = type
        self.value = value
        self.unit = unit
        self.start = start
        self.end = end
        self.source = source
        self.metadata = metadata
        self.revisable = revisable
        self.id = id
    }

    /// Recomputes the id after the identifying fields were changed in place.
    public mutating func refreshID() {
        id = SampleIdentity.id(type: type, start: start.millis, end: end.millis,
                               value: revisable ? nil : value, unit: unit, sourceName: source.name)
    }
}

/// Derives sample ids: SHA-256 over the fields that identify a measurement (type, start, end,
/// value, unit, source name — never the device string or metadata), truncated to 128 bits.
/// Receivers can deduplicate on it; re-importing a cumulative export finds the same ids.
public enum SampleIdentity {
    /// The id for these identifying fields. `value` nil means "revisable interval".
    public static func id(type: String, start: Int64, end: Int64, value: Double?, unit: String,
                          sourceName: String) -> SampleID {
        let number: String? = value.flatMap { v in
            v.isFinite && v == v.rounded() && abs(v) < 1e15 ? nil : String(v)
        }
        let capacity = 16 + 3 * 20 + type.utf8.count + unit.utf8.count + sourceName.utf8.count + (number?.utf8.count ?? 0)
        // The key is built on the stack and hashed there: no allocation per sample.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { key -> SampleID in
            var n = 0
            func byte(_ b: UInt8) { key[n] = b; n += 1 }
            func text(_ s: String) {
                // `n` goes in by value and comes back as the count: a closure that captured it
                // would check exclusive access to it at run time for every sample (BENCHMARKS.md,
                // "Exclusivity checks (paired)").
                let copied: Int? = s.utf8.withContiguousStorageIfAvailable { [n] utf8 in
                    guard let from = utf8.baseAddress, !utf8.isEmpty else { return 0 }
                    UnsafeMutableRawPointer(key.baseAddress! + n).copyMemory(from: from, byteCount: utf8.count)
                    return utf8.count
                }
                if let copied { n += copied } else { for b in s.utf8 { key[n] = b; n += 1 } }
            }
            func decimal(_ v: Int64) {
                if v == 0 { byte(0x30); return }
                if v < 0 { byte(0x2D) }
                var m = v.magnitude, digits = 0
                var t = m
                while t > 0 { digits += 1; t /= 10 }
                var i = n + digits - 1
                while m > 0 { key[i] = UInt8(m % 10) + 0x30; m /= 10; i -= 1 }
                n += digits
            }
            byte(0x68); byte(0x73); byte(0x31)  // "hs1"
            byte(0x1F); text(type)
            byte(0x1F); decimal(start)
            byte(0x1F); decimal(end)
            byte(0x1F)
            if let value {
                if let number { text(number) } else { decimal(Int64(value)) }
            } else {
                byte(0x7E)  // "~"
            }
            byte(0x1F); text(unit)
            byte(0x1F); text(sourceName)
            return withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { digest in
                SHA256.hash(UnsafeRawBufferPointer(start: key.baseAddress, count: n), into: digest)
                digest[6] = (digest[6] & 0x0F) | 0x80   // version 8: custom
                digest[8] = (digest[8] & 0x3F) | 0x80   // RFC 4122 variant
                return SampleID(UnsafeRawBufferPointer(digest))
            }
        }
    }

    /// A number's canonical text: integers without a fraction, others in Swift's shortest
    /// round-tripping form, so `72`, `72.0` and `72.000` identify alike.
    public static func canonicalNumber(_ v: Double) -> String {
        if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}
