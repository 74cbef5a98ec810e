import HealthSpoolCore
import HealthSpoolStore

/// The journal's tables, on a store's connection: symptom entries, their categories and
/// factor lists and the daily scores (`+Symptoms`, `+Imports`), lifestyle entries
/// (`+Lifestyle`), medications, doses, reminders, goals and notes (`+Medications`,
/// `+Reminders`, `+GoalsNotes`, `+Edits`, `+Restore`); here the transaction, the reading of
/// either table of entries, and a record put in line for the gateway (`queue`). Only
/// `HealthJournal` uses it.
///
/// Shares the `SampleStore`'s connection (and so its thread rule: one per thread), so an entry
/// and the record that puts it in line for the gateway are written in one transaction. Every
/// change is one short `BEGIN IMMEDIATE` transaction, so the CLI writes whether or not the
/// daemon runs (WAL, busy timeout).
public final class JournalStore {
    let conn: Connection
    /// Keeps the store (and the connection) alive.
    let store: SampleStore

    public init(_ store: SampleStore) {
        self.store = store
        conn = store.conn
    }

    /// Runs `body` in one write transaction (joins an open one).
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try store.inTransaction(body)
    }

    /// The last inserted row id.
    var lastRowID: Int64 { conn.lastInsertRowID }

    /// Runs `sql` with `bind` applied; returns the rows changed.
    @discardableResult
    func run(_ sql: String, _ bind: (Statement) -> Void = { _ in }) throws(StoreError) -> Int {
        let s = try conn.prepare(sql)
        bind(s)
        try s.run()
        return conn.changes
    }

    /// `body` in one transaction of its own.
    func write<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try conn.exec("BEGIN IMMEDIATE")
        do {
            let v = try body()
            try conn.exec("COMMIT")
            return v
        } catch {
            try? conn.exec("ROLLBACK")
            throw error
        }
    }

    static func times(_ text: String?) -> [TimeOfDay] {
        (text ?? "").split(separator: ",").compactMap { TimeOfDay(parsing: String($0)) }
    }

    static func text(_ times: [TimeOfDay]) -> String { times.map(\.description).joined(separator: ",") }

    // MARK: Reading entries of either table

    /// A table of entries with a 16-byte id, a `day` index and a `deleted` flag, and the columns
    /// its reader expects.
    struct EntryTable {
        var name: String
        var columns: String
    }

    static let symptoms = EntryTable(name: "symptom_entries", columns: symptomColumns)
    static let lifestyle = EntryTable(name: "lifestyle_entries", columns: lifestyleColumns)

    /// The entries of `table` whose id starts with `prefix` (hex digits, dashes ignored), at most `limit`.
    func entries<T>(of table: EntryTable, idPrefix prefix: String, limit: Int,
                            _ read: (Statement) -> T) throws(StoreError) -> [T] {
        let hex = prefix.uppercased().filter { $0 != "-" }
        return try conn.rows("SELECT \(table.columns) FROM \(table.name) WHERE hex(id) LIKE ? || '%' LIMIT ?") {
            $0.bind(1, hex); $0.bind(2, limit)
        } _: { read($0) }
    }

    /// The entries of `table` on a local day (not deleted), in time order.
    func entries<T>(of table: EntryTable, day: CivilDate, _ read: (Statement) -> T) throws(StoreError) -> [T] {
        try conn.rows("SELECT \(table.columns) FROM \(table.name) WHERE day = ? AND deleted = 0 ORDER BY at_ms, id") {
            $0.bind(1, day.daysSinceEpoch)
        } _: { read($0) }
    }

    /// The entries of `table` on the local days `from...to` (not deleted), in time order.
    func entries<T>(of table: EntryTable, from: CivilDate, to: CivilDate,
                            _ read: (Statement) -> T) throws(StoreError) -> [T] {
        try conn.rows("SELECT \(table.columns) FROM \(table.name) WHERE day BETWEEN ? AND ? AND deleted = 0 ORDER BY at_ms, id") {
            $0.bind(1, from.daysSinceEpoch); $0.bind(2, to.daysSinceEpoch)
        } _: { read($0) }
    }

    // MARK: Lists as JSON text

    static func jsonList(_ items: [String]) -> String {
        var w = JSONWriter(capacity: 64)
        w.value(.array(items.map(JSONValue.string)))
        return w.text
    }

    static func list(_ text: String?) -> [String] {
        guard let text, let v = try? JSONParser.parse(text), let items = v.arrayValue else { return [] }
        return items.compactMap(\.stringValue)
    }

    // MARK: A record put in line for the gateway

    /// Puts `record` in line for the gateway under its type: the row of its id (found by the
    /// start it was queued with last, `previousStart`) is rewritten and moved past every sync
    /// mark, so only the latest version waits and it goes out after whatever was sent before;
    /// a first version (or one whose row was pruned) gets a new row. Call inside a transaction.
    public func queue(_ record: JournalRecord, previousStart: Int64?, now: Timestamp) throws(StoreError) {
        guard let type = try store.typeID(record.type, create: true) else { return }
        let next = try store.nextRowID()
        let source = try store.sourceID(JournalType.source)
        if let previousStart {
            let move = try conn.prepare("""
                UPDATE samples SET rowid = ?4, start_ms = ?5, start_off = ?6, end_ms = ?7, end_off = ?8, value = ?9, unit = ?10,
                    metadata = ?11, version = ?12, deleted = ?13, state = 0, parked_ms = NULL, dead_reason = NULL
                WHERE type = ?1 AND start_ms = ?2 AND id = ?3
                """)
            move.bind(1, type); move.bind(2, previousStart); move.bind(3, id: record.id)
            bindBody(record, rowID: next, to: move)
            try move.run()
            if conn.changes > 0 { return try store.queueRun(typeID: type, first: next, last: next) }
        }
        // A row of the same type, start and id (only left by a store changed by hand) goes
        // first, by a DELETE its trigger counts (REPLACE would not fire it).
        let clear = try conn.prepare("DELETE FROM samples WHERE type = ?1 AND start_ms = ?2 AND id = ?3")
        clear.bind(1, type); clear.bind(2, record.start.millis); clear.bind(3, id: record.id)
        try clear.run()
        let add = try conn.prepare("""
            INSERT INTO samples(rowid, type, start_ms, id, start_off, end_ms, end_off, value, unit, metadata,
                version, deleted, source_id, revisable, created_ms)
            VALUES (?4, ?1, ?5, ?3, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 0, ?15)
            """)
        add.bind(1, type); add.bind(3, id: record.id)
        bindBody(record, rowID: next, to: add)
        add.bind(14, source); add.bind(15, now.millis)
        try add.run()
        try store.countQueued(1, typeID: type)
        try store.queueRun(typeID: type, first: next, last: next)
    }

    private func bindBody(_ r: JournalRecord, rowID: Int64, to s: Statement) {
        s.bind(4, rowID)
        s.bind(5, r.start.millis); s.bind(6, Int64(r.start.utcOffsetSeconds))
        s.bind(7, r.end.millis); s.bind(8, Int64(r.end.utcOffsetSeconds))
        s.bind(9, r.value); s.bind(10, r.unit); s.bind(11, r.metadata)
        s.bind(12, r.version); s.bind(13, r.deleted ? 1 : 0)
    }

    /// The queued (not yet delivered) journal records of `type`, for tests and status: id,
    /// version and tombstone flag, in send order.
    func queuedRecords(type: String) throws(StoreError) -> [(id: SampleID, version: Int, deleted: Bool)] {
        guard let t = try store.typeID(type, create: false) else { return [] }
        let q = try conn.prepare(SampleStore.queueQuery("id, version, deleted"))
        q.bind(1, t); q.bind(2, 0); q.bind(3, -1)
        var out: [(SampleID, Int, Bool)] = []
        while try q.step() { out.append((q.id(0) ?? SampleID(bytes: [UInt8](repeating: 0, count: 16)), Int(q.int(1)), q.int(2) != 0)) }
        return out.map { (id: $0.0, version: $0.1, deleted: $0.2) }
    }
}
