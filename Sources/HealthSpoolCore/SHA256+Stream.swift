import CCrypto

extension SHA256 {
    /// SHA-256 over bytes that arrive in pieces (a whole file, read block by block). Owns an
    /// OpenSSL digest context; `finish` gives the digest once.
    public final class Stream {
        private var ctx: OpaquePointer?

        public init() {
            ctx = hs_sha256_begin()
            // Only a broken OpenSSL installation (no default provider) gets here.
            precondition(ctx != nil, "libcrypto could not start a SHA-256 digest")
        }

        deinit { if let ctx { _ = hs_sha256_end(ctx, nil) } }

        /// Adds `bytes` to the digest.
        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let ctx, let base = bytes.baseAddress, bytes.count > 0 else { return }
            precondition(hs_sha256_update(ctx, base, bytes.count) == 1, "libcrypto could not update a SHA-256 digest")
        }

        /// The 32-byte digest of everything added; the stream is finished afterwards.
        public func finish() -> [UInt8] {
            guard let ctx else { preconditionFailure("SHA256.Stream finished twice") }
            self.ctx = nil
            var out = [UInt8](repeating: 0, count: 32)
            let ok = out.withUnsafeMutableBufferPointer { hs_sha256_end(ctx, $0.baseAddress) }
            precondition(ok == 1, "libcrypto could not finish a SHA-256 digest")
            return out
        }
    }
}
