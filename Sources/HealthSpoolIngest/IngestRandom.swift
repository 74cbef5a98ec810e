import CTLSServer

/// Random bytes from OpenSSL's generator (tokens, file names, certificate serials).
enum IngestRandom {
    static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { hs_tls_random($0.baseAddress, Int32(count)) == 0 }
        precondition(ok, "OpenSSL's random generator failed")
        return out
    }
}
