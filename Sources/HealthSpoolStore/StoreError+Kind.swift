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

extension StoreError {
    /// The operation an extended I/O error code names (SQLite's `SQLITE_IOERR_…` codes), nil for
    /// any other code.
    static func ioOperation(_ extended: Int32) -> String? {
        guard extended & 0xFF == SQLITE_IOERR, extended != SQLITE_IOERR else { return nil }
        let names = [1: "read", 2: "short read", 3: "write", 4: "fsync", 5: "directory fsync", 6: "truncate", 7: "fstat",
                     8: "unlock", 9: "read lock", 10: "delete", 11: "blocked", 12: "out of memory", 13: "access",
                     14: "check reserved lock", 15: "lock", 16: "close", 17: "directory close", 18: "shared memory open",
                     19: "shared memory size", 20: "shared memory lock", 21: "shared memory map", 22: "seek",
                     23: "delete of a missing file", 24: "mmap", 25: "temporary path", 26: "path conversion",
                     27: "vnode", 28: "authentication", 29: "begin atomic write", 30: "commit atomic write",
                     31: "rollback atomic write", 32: "data", 33: "corrupt file system"]
        return names[Int(extended >> 8)].map { "I/O error on \($0)" }
    }
}
