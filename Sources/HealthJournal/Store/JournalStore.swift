import HealthSpoolCore
import HealthSpoolStore

/// The health journal's medications, doses, reminders, goals and notes, on a store's connection.
///
/// Shares the `SampleStore`'s connection (and so its thread rule: one per thread); every
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

    /// `body` in one transaction.
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
}
