import CSQLite

extension StoreError {
    /// What kind of failure SQLite reported, for callers that decide whether waiting can help.
    public enum Kind: Sendable, Equatable {
        /// SQLITE_FULL: the disk (or quota) is full.
        case full
        /// The store or its directory cannot be opened or written (permissions, read-only).
        case notWritable
        /// SQLITE_IOERR: the disk failed a read or write.
        case io
        /// Another connection holds the store, or memory ran out.
        case busy
        /// Anything else (corruption, a constraint, a misuse).
        case other
    }

    /// The kind of this failure, from SQLite's primary result code.
    public var kind: Kind {
        switch code & 0xFF {
        case SQLITE_FULL: .full
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: .notWritable
        case SQLITE_IOERR: .io
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM: .busy
        default: .other
        }
    }
}
