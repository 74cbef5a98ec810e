import CSQLite
import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// A store failure, naming the database and what SQLite said.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let code: Int32
    public let message: String
    /// SQLite's extended result code (`sqlite3_extended_errcode`), when it says more than `code`:
    /// for an I/O error, which operation failed (`SQLITE_IOERR_SHORT_READ`, `…_FSTAT`, `…_SHMMAP`).
    public var extendedCode: Int32?
    /// The system's error number behind the failure (`sqlite3_system_errno`), 0 when none.
    public var systemErrno: Int32 = 0

    public var description: String {
        var detail = "SQLite code \(code)"
        if let extendedCode, extendedCode != code { detail += ", extended \(extendedCode)" + (Self.ioOperation(extendedCode).map { " (\($0))" } ?? "") }
        // The errno of SQLite's last failed system call: only an I/O, open or full-disk failure has one of its own.
        if systemErrno != 0, [SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL].contains(code & 0xFF) {
            detail += ", errno \(systemErrno): " + String(cString: strerror(systemErrno))
        }
        return "store \(path): \(message) (\(detail))"
    }
    /// Whether trying again later may help (the database was busy or locked).
    public var isRetryable: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// Whether another connection held the store past this connection's busy timeout
    /// (SQLITE_BUSY or SQLITE_LOCKED, with any extended code): nothing of the statement was done.
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
}

/// One SQLite connection. Owns the handle; closes it in `deinit`.
package final class Connection {
    let db: OpaquePointer
    let path: String
    /// How this connection waits for another's write lock (SQLite's busy handler).
    let busy: BusyWait

    /// How long a connection waits for another's lock unless told otherwise: the daemon's
    /// services. Commands a person runs wait longer (`SampleStore.interactiveBusyTimeout`).
    static let defaultBusyTimeoutMillis: Int64 = 5_000

    /// Turns SQLite's memory statistics (and their global mutex) off, once, before any connection.
    private static let configured: Bool = { hs_sqlite3_disable_memstatus() == SQLITE_OK }()

    init(path: String, readOnly: Bool = false, busyTimeoutMillis: Int64 = Connection.defaultBusyTimeoutMillis) throws(StoreError) {
        _ = Self.configured
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let msg = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            let extended = handle.map { sqlite3_extended_errcode($0) }, system = handle.map { sqlite3_system_errno($0) } ?? 0
            if let handle { sqlite3_close_v2(handle) }
            throw StoreError(path: path, code: rc, message: msg, extendedCode: extended, systemErrno: system)
        }
        db = handle
        self.path = path
        busy = BusyWait(storePath: path, timeoutMillis: busyTimeoutMillis)
        sqlite3_busy_handler(db, busyHandler, Unmanaged.passUnretained(busy).toOpaque())
    }

    /// After a commit: lets writers of other connections that wait for the lock take it
    /// first, pausing at most `maxMillis` (a second by default). Returns the milliseconds paused.
    @discardableResult
    func letWaitingWritersIn(maxMillis: Int64 = 1_000) -> Int64 { busy.waitForMarks(maxMillis: maxMillis) }

    deinit { sqlite3_close_v2(db) }

    /// The failure `rc` of the last call on this connection, with SQLite's extended code and the
    /// system's errno (what an I/O error needs to be told apart).
    func error(_ rc: Int32) -> StoreError {
        StoreError(path: path, code: rc, message: String(cString: sqlite3_errmsg(db)),
                   extendedCode: sqlite3_extended_errcode(db), systemErrno: sqlite3_system_errno(db))
    }

    package func exec(_ sql: String) throws(StoreError) {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &err)
        if BusyWait.anyMarked { busy.unmark() }
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? "error"
            sqlite3_free(err)
            throw StoreError(path: path, code: rc, message: msg, extendedCode: sqlite3_extended_errcode(db), systemErrno: sqlite3_system_errno(db))
        }
    }

    package func prepare(_ sql: String) throws(StoreError) -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc) }
        return Statement(stmt, connection: self)
    }

    package var changes: Int { Int(sqlite3_changes(db)) }
    /// The row id of the last row inserted on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    /// The rows of `sql` with `bind` applied, each read by `read`.
    package func rows<T>(_ sql: String, _ bind: (Statement) -> Void = { _ in }, _ read: (Statement) throws(StoreError) -> T) throws(StoreError) -> [T] {
        let s = try prepare(sql)
        bind(s)
        var out: [T] = []
        while try s.step() { out.append(try read(s)) }
        return out
    }

    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try exec("BEGIN IMMEDIATE")
        do {
            let v = try body()
            try exec("COMMIT")
            return v
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }
}

/// The last text a column gave, for `Statement.string(_:cache:)`.
struct TextCache {
    var bytes: [UInt8] = []
    var text: String?
}

/// A prepared statement. Bind by 1-based index; step; read columns by 0-based index.
package final class Statement {
    let stmt: OpaquePointer
    /// Held strongly: a statement may outlive its owner's reference to the connection (SQLite's
    /// `sqlite3_close_v2` keeps the handle until the last statement is finalized), and stepping
    /// it reads the connection's busy state.
    let connection: Connection

    init(_ stmt: OpaquePointer, connection: Connection) {
        self.stmt = stmt
        self.connection = connection
    }

    deinit { sqlite3_finalize(stmt) }

    package func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    package func bind(_ i: Int32, _ v: Int64) { sqlite3_bind_int64(stmt, i, v) }
    package func bind(_ i: Int32, _ v: Int) { sqlite3_bind_int64(stmt, i, Int64(v)) }
    package func bind(_ i: Int32, _ v: Double) { sqlite3_bind_double(stmt, i, v) }
    package func bind(_ i: Int32, _ v: Int64?) {
        guard let v else { sqlite3_bind_null(stmt, i); return }
        sqlite3_bind_int64(stmt, i, v)
    }
    package func bind(_ i: Int32, _ v: Double?) {
        guard let v else { sqlite3_bind_null(stmt, i); return }
        sqlite3_bind_double(stmt, i, v)
    }
    package func bind(_ i: Int32, _ v: String?) {
        guard var v else { sqlite3_bind_null(stmt, i); return }
        v.withUTF8 { buf in
            _ = buf.withMemoryRebound(to: CChar.self) { hs_sqlite3_bind_text_transient(stmt, i, $0.baseAddress, Int32($0.count)) }
        }
    }
    package func bind(_ i: Int32, id: SampleID) {
        id.withUnsafeBytes { _ = hs_sqlite3_bind_blob_transient(stmt, i, $0.baseAddress, 16) }
    }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    package func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(stmt)
        if BusyWait.anyMarked { connection.busy.unmark() }
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc)
    }

    /// Runs to completion and resets, without clearing the bindings (every parameter is bound
    /// again before the next run).
    package func runKeepingBindings() throws(StoreError) {
        defer { sqlite3_reset(stmt) }
        while try step() {}
    }

    /// Runs to completion and resets.
    package func run() throws(StoreError) {
        defer { reset() }
        while try step() {}
    }

    package func int(_ c: Int32) -> Int64 { sqlite3_column_int64(stmt, c) }
    package func double(_ c: Int32) -> Double { sqlite3_column_double(stmt, c) }
    package func isNull(_ c: Int32) -> Bool { sqlite3_column_type(stmt, c) == SQLITE_NULL }
    package func string(_ c: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, c) else { return nil }
        return String(cString: p)
    }
    /// A text column through `cache`: the same text as last time gives back the same String
    /// (no allocation; the encoder then compares it by identity).
    func string(_ c: Int32, cache: inout TextCache) -> String? {
        guard let p = sqlite3_column_text(stmt, c) else { return nil }
        let n = Int(sqlite3_column_bytes(stmt, c))
        let text = UnsafeBufferPointer(start: p, count: n)
        if let last = cache.text, cache.bytes.count == n, cache.bytes.withUnsafeBufferPointer({ n == 0 || memcmp($0.baseAddress!, p, n) == 0 }) {
            return last
        }
        let value = String(decoding: text, as: UTF8.self)
        cache.bytes = Array(text)
        cache.text = value
        return value
    }

    /// A text or blob column's bytes, valid until the statement steps or resets (empty for NULL).
    package func bytes(_ c: Int32) -> UnsafeRawBufferPointer {
        guard let p = sqlite3_column_blob(stmt, c) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, c)))
    }

    /// A sample id column (a 16-byte blob); nil when it is not one.
    package func id(_ c: Int32) -> SampleID? {
        guard sqlite3_column_bytes(stmt, c) == 16, let p = sqlite3_column_blob(stmt, c) else { return nil }
        return SampleID(UnsafeRawBufferPointer(start: p, count: 16))
    }
}
