/// Why a TZif file could not be read.
public struct ZoneRulesError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension ZoneRules {
    /// Reads a TZif file (RFC 8536, versions 1–4): its 64-bit transitions when present, and the
    /// footer's POSIX rule for the times after them.
    public init(name: String, tzif bytes: [UInt8]) throws(ZoneRulesError) {
        var p = 0
        func fail(_ what: String) -> ZoneRulesError {
            ZoneRulesError("time zone \(name): not a TZif file (\(what) at byte \(p)); reinstall tzdata or set TZ to another zone")
        }
        func u32() throws(ZoneRulesError) -> UInt32 {
            guard p + 4 <= bytes.count else { throw fail("truncated") }
            defer { p += 4 }
            return UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3])
        }
        func i64() throws(ZoneRulesError) -> Int64 {
            let hi = UInt64(try u32()), lo = UInt64(try u32())
            return Int64(bitPattern: hi << 32 | lo)
        }
        struct Header { var isut, isstd, leap, time, type, chars: Int }
        func header() throws(ZoneRulesError) -> (version: UInt8, Header) {
            guard bytes.count >= p + 44, bytes[p..<p + 4].elementsEqual("TZif".utf8) else { throw fail("no TZif magic") }
            let version = bytes[p + 4]
            p += 20
            var c: [Int] = []
            for _ in 0..<6 { c.append(Int(try u32())) }
            return (version, Header(isut: c[0], isstd: c[1], leap: c[2], time: c[3], type: c[4], chars: c[5]))
        }
        var (version, h) = try header()
        var timeSize = 4
        if version >= 0x32 {   // '2': skip the 32-bit block, read the 64-bit one
            p += h.time * 5 + h.type * 6 + h.chars + h.leap * 8 + h.isstd + h.isut
            (_, h) = try header()
            timeSize = 8
        }
        var times: [Int64] = []
        for _ in 0..<h.time { times.append(timeSize == 8 ? try i64() : Int64(Int32(bitPattern: try u32()))) }
        guard p + h.time <= bytes.count else { throw fail("truncated") }
        let indices = bytes[p..<p + h.time].map(Int.init)
        p += h.time
        var typeOffsets: [Int32] = []
        for _ in 0..<h.type {
            typeOffsets.append(Int32(bitPattern: try u32()))
            guard p + 2 <= bytes.count else { throw fail("truncated") }
            p += 2
        }
        guard !typeOffsets.isEmpty, indices.allSatisfy({ $0 < typeOffsets.count }) else { throw fail("bad local time type") }
        p += h.chars + h.leap * (timeSize + 4) + h.isstd + h.isut
        var rule: PosixZoneRule?
        if timeSize == 8, p < bytes.count, bytes[p] == 0x0A, let end = bytes[(p + 1)...].firstIndex(of: 0x0A), end > p + 1 {
            rule = PosixZoneRule(parsing: String(decoding: bytes[(p + 1)..<end], as: UTF8.self))
        }
        self.init(name: name, transitions: times, offsets: indices.map { typeOffsets[$0] },
                  initialOffset: typeOffsets[0], rule: rule)   // RFC 8536: type 0 before the first transition
    }
}
