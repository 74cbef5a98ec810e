import CSQLite

/// What is still to send, as runs of row ids (schema step 11, issue 44).
///
/// A type's queue is its rows past its mark (`types.synced_to`) that are not parked, in row-id
/// order. Every row put in line gets a fresh row id past every mark and row, and its run is
/// recorded in the same transaction: a bulk insert records one run per type and batch (the batch
/// is sorted by type, so a type's new rows have consecutive row ids); a row moved to the end of
/// the line (a revision, a retry, a dead letter put back, a tombstone, a journal record's new
/// version) extends its type's last run or starts one. Reading the queue walks the runs past the
/// mark, each as a row-id range of the table: no per-row index is written on the bulk path.
/// Runs wholly behind the mark are dropped when it moves.
///
/// Invariants (checked by `uncoveredQueuedRows` and `foreignRowsInRuns`, tests): every queued
/// row lies inside a run of its type; a run holds rows of its type only (the mark's count trigger
/// counts a run's rows without reading their type); runs never overlap (`nextRowID` is past
/// every run).
extension SampleStore {
    /// `columns` (a list of `samples` columns) of a type's queued rows (`?1`) past row id `?2`,
    /// at most `?3`, in send order, read run by run.
    package static func queueQuery(_ columns: String) -> String {
        """
        SELECT \(qualified(columns, by: "s")) FROM queue_runs AS r, samples AS s
        WHERE r.type = ?1 AND r.last > max(?2, (SELECT synced_to FROM types WHERE id = ?1))
            AND s.rowid BETWEEN max(r.first, max(?2, (SELECT synced_to FROM types WHERE id = ?1)) + 1) AND r.last
            AND +s.type = ?1 AND s.state = 0
        ORDER BY r.first, s.rowid LIMIT ?3
        """
    }

    /// `columns` with each name prefixed by `table.`.
    static func qualified(_ columns: String, by table: String) -> String {
        columns.split(separator: ",").map { "\(table).\($0.drop(while: { $0 == " " }))" }.joined(separator: ", ")
    }

    /// Records rows `first...last` of the type with id `typeID` as put in line: extends the
    /// type's last run when it ends right before `first`, else starts a run. Call inside the
    /// write transaction that gave the rows their ids.
    package func queueRun(typeID: Int64, first: Int64, last: Int64) throws(StoreError) {
        let extend = try cached("""
            UPDATE queue_runs SET last = ?3
            WHERE type = ?1 AND first = (SELECT max(first) FROM queue_runs WHERE type = ?1) AND last = ?2 - 1
            """)
        extend.bind(1, typeID); extend.bind(2, first); extend.bind(3, last)
        try extend.run()
        guard conn.changes == 0 else { return }
        let add = try cached("INSERT INTO queue_runs(type, first, last) VALUES (?1, ?2, ?3)")
        add.bind(1, typeID); add.bind(2, first); add.bind(3, last)
        try add.run()
    }

    /// Records the rows that were just given the fresh row ids `first...last` (in any mix of
    /// types) as put in line, a run per stretch of one type.
    func queueFreshRows(from first: Int64, through last: Int64) throws(StoreError) {
        guard first <= last else { return }
        let rows = try cached("SELECT rowid, type FROM samples WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid")
        rows.bind(1, first); rows.bind(2, last)
        var runs: [(type: Int64, first: Int64, last: Int64)] = []
        do {
            defer { rows.reset() }
            while try rows.step() {
                let row = rows.int(0), type = rows.int(1)
                if let r = runs.last, r.type == type, r.last == row - 1 { runs[runs.count - 1].last = row } else {
                    runs.append((type, row, row))
                }
            }
        }
        for r in runs { try queueRun(typeID: r.type, first: r.first, last: r.last) }
    }

    /// Drops the runs of the type with id `typeID` that lie wholly at or behind its mark.
    func dropDeliveredRuns(typeID: Int64) throws(StoreError) {
        let s = try cached("DELETE FROM queue_runs WHERE type = ?1 AND last <= (SELECT synced_to FROM types WHERE id = ?1)")
        s.bind(1, typeID)
        try s.run()
    }

    /// Queued rows (not parked, past their type's mark) that no run of their type covers: 0
    /// unless the invariant above is broken (tests).
    func uncoveredQueuedRows() throws(StoreError) -> Int {
        let s = try conn.prepare("""
            SELECT count(*) FROM samples AS s JOIN types AS t ON t.id = s.type
            WHERE s.state = 0 AND s.rowid > t.synced_to
                AND NOT EXISTS (SELECT 1 FROM queue_runs AS r WHERE r.type = s.type AND s.rowid BETWEEN r.first AND r.last)
            """)
        _ = try s.step()
        return Int(s.int(0))
    }

    /// Rows inside a run (past its type's mark) that are of another type: 0 unless the invariant
    /// above is broken (tests).
    func foreignRowsInRuns() throws(StoreError) -> Int {
        let s = try conn.prepare("""
            SELECT count(*) FROM queue_runs AS r JOIN types AS t ON t.id = r.type, samples AS s
            WHERE s.rowid BETWEEN max(r.first, t.synced_to + 1) AND r.last AND s.type != r.type
            """)
        _ = try s.step()
        return Int(s.int(0))
    }
}
