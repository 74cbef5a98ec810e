/// SHA-256 (FIPS 180-4), used to derive stable sample ids. Pure Swift so the core needs no C
/// library; short inputs only, so a plain implementation is fast enough (~1 µs a sample).
public struct SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest of `message`.
    public static func hash<C: Collection>(_ message: C) -> [UInt8] where C.Element == UInt8 {
        if let digest = message.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(message).withUnsafeBytes { hash($0) }
    }

    /// The 32-byte digest of raw bytes, without heap allocations besides the result.
    public static func hash(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                let n = message.count
                let full = n / 64
                for b in 0..<full { compress(&h, UnsafeRawBufferPointer(rebasing: message[(b * 64)..<(b * 64 + 64)]), w) }
                // Padding: the rest, 0x80, zeros, and the bit length, in one or two blocks.
                let rest = n - full * 64
                let tailBlocks = rest < 56 ? 1 : 2
                for i in 0..<(tailBlocks * 64) { tail[i] = 0 }
                for i in 0..<rest { tail[i] = message[full * 64 + i] }
                tail[rest] = 0x80
                let bits = UInt64(n) * 8
                for i in 0..<8 { tail[tailBlocks * 64 - 1 - i] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i))) }
                let raw = UnsafeRawBufferPointer(tail)
                for b in 0..<tailBlocks { compress(&h, UnsafeRawBufferPointer(rebasing: raw[(b * 64)..<(b * 64 + 64)]), w) }
            }
        }
        var out = [UInt8](repeating: 0, count: 32)
        for (i, v) in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7].enumerated() {
            out[i * 4] = UInt8(v >> 24); out[i * 4 + 1] = UInt8(v >> 16 & 0xff)
            out[i * 4 + 2] = UInt8(v >> 8 & 0xff); out[i * 4 + 3] = UInt8(v & 0xff)
        }
        return out
    }

    @inline(__always)
    private static func compress(_ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
                                 _ block: UnsafeRawBufferPointer, _ w: UnsafeMutableBufferPointer<UInt32>) {
        for t in 0..<16 {
            let j = t * 4
            w[t] = UInt32(block[j]) << 24 | UInt32(block[j + 1]) << 16 | UInt32(block[j + 2]) << 8 | UInt32(block[j + 3])
        }
        for t in 16..<64 {
            let s0 = w[t - 15].rotr(7) ^ w[t - 15].rotr(18) ^ (w[t - 15] &>> 3)
            let s1 = w[t - 2].rotr(17) ^ w[t - 2].rotr(19) ^ (w[t - 2] &>> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        k.withUnsafeBufferPointer { k in
            for t in 0..<64 {
                let s1 = e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[t] &+ w[t]
                let s0 = a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ maj
                hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
            }
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }
}

extension UInt32 {
    @inline(__always) func rotr(_ n: UInt32) -> UInt32 { (self &>> n) | (self &<< (32 &- n)) }
}
