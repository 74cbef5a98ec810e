import HealthSpoolCore

/// The store's schema, applied in numbered steps recorded in `PRAGMA user_version`.
///
/// Step 2 replaced the per-row sync state with a mark per type (`types.synced_to`): a type's
/// queue is its rows past the mark, in row-id order, so recording a delivered batch writes one
/// row instead of one per sample. Duplicates are found through `UNIQUE (type, start_ms, id)`
/// (the id derives from type and start, so this is the id's uniqueness), which an export's
/// type-grouped, time-ordered records fill front to back instead of at random.
///
/// Step 3 added `delivered`: the ids of delivered samples whose rows were pruned, so a
/// cumulative export that carries them again neither stores nor sends them again. A row is the
/// 16-byte id (and, for a revisable sample, its delivered value): about 24 bytes a pruned sample
/// (BENCHMARKS.md, "Delivered ids").
///
/// Step 4 added the health journal (`SymptomJournalSchema`) and, on `samples`, a journal record's
/// `version` and `deleted` (tombstone) flag; measurements keep 0 and 0. Adding columns rewrites
/// no row.
///
/// Step 5 is the journal's medications, doses, reminders, goals and notes
/// (`JournalSchema.medicationsAndReminders`).
///
/// Step 6 added `day_rollups`: per local day and type the merged figures of the day view and
/// calendar (`DayRollup`), recomputed for the days each write touches.
///
/// Step 7 added `type_counts`: per type the samples queued, synced and parked, kept as rows
/// change, so a metrics scrape or `status` reads a row per type instead of counting the queue
/// index (about a second of CPU on 20 M samples). Triggers keep them for every update and delete
/// of a sample and every move of a type's mark; new rows are counted by `SampleStore.insert`
/// (one update per type and batch: a trigger per inserted row cost ~0.6 µs, on the import's
/// critical path). Every sample is inserted through `insert`.
/// Step 8 added `dirty_days`: the (type, day) pairs a bulk import touched whose rollups are not
/// computed yet, marked in the samples' transaction (`SampleStore+DirtyDays`).
/// Step 9 added `part_meant` to the journal's entries: the time stands for the part of the day
/// the person chose (`SymptomEntry.partMeant`).
/// Step 10 added `full_export`, `inferred_deletions` and `source_freshness` (issue 43).
/// Step 11 replaced the per-row queue index `samples_queue (type, state, rowid)` with
/// `queue_runs`: per type the runs of row ids (first, last) that hold its rows past its mark
/// (`SampleStore+QueueRuns`). A bulk import writes each sample into two B-trees instead of
/// three (BENCHMARKS.md, "Issue 44"); the parked rows keep a partial index of their own.
enum Schema {
    static let migrations: [String] = [
        """
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            version TEXT NOT NULL DEFAULT '',
            device TEXT NOT NULL DEFAULT '',
            UNIQUE (name, version, device)
        );
        CREATE TABLE samples (
            rowid INTEGER PRIMARY KEY,
            id BLOB NOT NULL UNIQUE,
            type TEXT NOT NULL,
            value REAL NOT NULL,
            unit TEXT NOT NULL,
            start_ms INTEGER NOT NULL,
            start_off INTEGER NOT NULL,
            end_ms INTEGER NOT NULL,
            end_off INTEGER NOT NULL,
            source_id INTEGER NOT NULL REFERENCES sources(id),
            metadata TEXT,
            revisable INTEGER NOT NULL DEFAULT 0,
            created_ms INTEGER NOT NULL,
            state INTEGER NOT NULL DEFAULT 0,      -- 0 queued, 1 synced, 2 parked (dead letter)
            synced_ms INTEGER,
            dead_reason TEXT
        );
        CREATE INDEX samples_queue ON samples(type, rowid) WHERE state = 0;
        CREATE TABLE imports (
            id INTEGER PRIMARY KEY,
            file TEXT NOT NULL,
            fingerprint TEXT,
            format TEXT,
            at_ms INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL DEFAULT 0,
            outcome TEXT NOT NULL,                -- imported, partial, failed, unchanged
            new INTEGER NOT NULL DEFAULT 0,
            duplicates INTEGER NOT NULL DEFAULT 0,
            revised INTEGER NOT NULL DEFAULT 0,
            skipped INTEGER NOT NULL DEFAULT 0,
            reason TEXT
        );
        CREATE INDEX imports_fingerprint ON imports(fingerprint);
        CREATE TABLE sync_history (
            id INTEGER PRIMARY KEY,
            started_ms INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            trigger TEXT NOT NULL,
            types TEXT NOT NULL,
            outcome TEXT NOT NULL,                -- success, partial, failed
            count INTEGER NOT NULL,
            http_status INTEGER,
            error TEXT
        );
        CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE profile (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_ms INTEGER NOT NULL);
        """,
        """
        CREATE TABLE types (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            synced_to INTEGER NOT NULL DEFAULT 0   -- rows of this type up to this row id are sent
        );
        INSERT INTO types(name) SELECT DISTINCT type FROM samples ORDER BY type;
        UPDATE types SET synced_to = coalesce(
            (SELECT min(rowid) - 1 FROM samples WHERE samples.type = types.name AND state = 0),
            (SELECT max(rowid) FROM samples WHERE samples.type = types.name), 0);
        CREATE TABLE samples_v2 (
            rowid INTEGER PRIMARY KEY,             -- the send order
            type INTEGER NOT NULL REFERENCES types(id),
            start_ms INTEGER NOT NULL,
            id BLOB NOT NULL,
            value REAL NOT NULL,
            unit TEXT NOT NULL,
            start_off INTEGER NOT NULL,
            end_ms INTEGER NOT NULL,
            end_off INTEGER NOT NULL,
            source_id INTEGER NOT NULL REFERENCES sources(id),
            metadata TEXT,
            revisable INTEGER NOT NULL DEFAULT 0,
            created_ms INTEGER NOT NULL,
            state INTEGER NOT NULL DEFAULT 0,      -- 0 in line to be sent (or sent), 2 parked (dead letter)
            parked_ms INTEGER,
            dead_reason TEXT,
            UNIQUE (type, start_ms, id)
        );
        INSERT INTO samples_v2 SELECT s.rowid, t.id, s.start_ms, s.id, s.value, s.unit, s.start_off, s.end_ms, s.end_off,
            s.source_id, s.metadata, s.revisable, s.created_ms, CASE s.state WHEN 2 THEN 2 ELSE 0 END,
            CASE s.state WHEN 2 THEN s.synced_ms END, s.dead_reason
            FROM samples AS s JOIN types AS t ON t.name = s.type;
        DROP TABLE samples;
        ALTER TABLE samples_v2 RENAME TO samples;
        CREATE INDEX samples_queue ON samples(type, state, rowid);
        """,
        """
        CREATE TABLE delivered (
            id BLOB PRIMARY KEY,                   -- a pruned sample's id
            value REAL                             -- its delivered value, for a revisable sample; else NULL
        ) WITHOUT ROWID;
        """,
        SymptomJournalSchema.step4,
        JournalSchema.medicationsAndReminders,
        // Step 6: daily rollups (SampleStore+Rollups), filled at the first write or view.
        """
        CREATE TABLE day_rollups (
            day INTEGER NOT NULL,                  -- local day, days since 1970-01-01 (state rollups.policy names the zone)
            figure TEXT NOT NULL,                  -- a type's registry name, or 'sleep'
            value REAL NOT NULL,                   -- merged total (cumulative types), sum of readings, or minutes asleep
            count INTEGER NOT NULL,
            low REAL,
            high REAL,
            detail TEXT,
            PRIMARY KEY (day, figure)
        ) WITHOUT ROWID;
        """,
        typeCounts,
        // Step 8: days whose rollups a deferred write left to compute (SampleStore+DirtyDays).
        """
        CREATE TABLE dirty_days (
            type TEXT NOT NULL,                    -- a type's registry name
            day INTEGER NOT NULL,                  -- local day under state rollups.policy
            PRIMARY KEY (day, type)
        ) WITHOUT ROWID;
        """,
        // Step 9: whether an entry's time stands for the part of the day the person chose
        // (`SymptomEntry.partMeant`, issue 40).
        """
        ALTER TABLE symptom_entries ADD COLUMN part_meant INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE lifestyle_entries ADD COLUMN part_meant INTEGER NOT NULL DEFAULT 0;
        """,
        // Step 10: deletions inferred from full exports, and freshness per source (issue 43).
        """
        ALTER TABLE samples ADD COLUMN full_export INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE inferred_deletions (
            id BLOB PRIMARY KEY,                   -- the sample's id
            type TEXT NOT NULL,                    -- its type's registry name
            start_ms INTEGER NOT NULL,             -- its start (with type and id, its row's key)
            export_ms INTEGER NOT NULL,            -- ExportDate of the export that no longer held it
            at_ms INTEGER NOT NULL,                -- when that export was imported
            state INTEGER NOT NULL                 -- 0 waiting (over the bound), 1 marked deleted, 2 restored
        ) WITHOUT ROWID;
        CREATE TABLE source_freshness (
            source TEXT NOT NULL,                  -- a source's name (all its versions and devices)
            type TEXT NOT NULL,
            newest_ms INTEGER NOT NULL,            -- start of the newest sample delivered
            arrived_ms INTEGER NOT NULL,           -- when samples last arrived
            usual_gap_ms INTEGER NOT NULL,         -- learned time between arrivals (SourceFreshness)
            arrivals INTEGER NOT NULL,
            notified_ms INTEGER,                   -- when the person was told it went quiet
            PRIMARY KEY (source, type)
        ) WITHOUT ROWID;
        """,
        queueRuns,
    ]

    /// The step that made the queue runs of row ids (issue 44).
    static let queueRunsStep = 11

    /// Step 11 (see above), after `fillQueueRuns` made and filled `queue_runs` in the same
    /// transaction: the queue index goes, the parked rows get their own, and the mark's trigger
    /// counts through the runs. A store is either at step 10 or at step 11.
    static let queueRuns = """
        DROP INDEX IF EXISTS samples_queue;
        CREATE INDEX samples_parked ON samples(type, rowid) WHERE state = 2;
        DROP TRIGGER IF EXISTS type_counts_mark_moved;
        \(typeCountsMarkMoved)
        """

    /// Makes `queue_runs` and fills it from the queue index, before step 11 drops the index: a
    /// run is a type's queued rows with consecutive row ids (a gap, or a row of another type,
    /// starts the next). The rows stream by in index order and a run is written when it ends,
    /// so memory stays flat however long the queue (a window function's sort held the whole
    /// queue: 171 MB for 2.4 M queued samples).
    static func fillQueueRuns(_ c: Connection) throws(StoreError) {
        try c.exec("""
            CREATE TABLE IF NOT EXISTS queue_runs (
                type INTEGER NOT NULL REFERENCES types(id),
                first INTEGER NOT NULL,            -- the run's first row id
                last INTEGER NOT NULL,             -- its last row id; every row between is of this type or gone
                PRIMARY KEY (type, first)
            ) WITHOUT ROWID;
            """)
        // CROSS JOIN: types first, so each type's queue is one range of the index, not a scan of it.
        let rows = try c.prepare("""
            SELECT q.type, q.rowid FROM types AS t CROSS JOIN samples AS q
            WHERE q.type = t.id AND q.state = 0 AND q.rowid > t.synced_to
            """)
        let add = try c.prepare("INSERT INTO queue_runs(type, first, last) VALUES (?1, ?2, ?3)")
        var run: (type: Int64, first: Int64, last: Int64)?
        func write(_ r: (type: Int64, first: Int64, last: Int64)) throws(StoreError) {
            add.bind(1, r.type); add.bind(2, r.first); add.bind(3, r.last)
            try add.run()
        }
        while try rows.step() {
            let type = rows.int(0), row = rows.int(1)
            if let r = run, r.type == type, r.last == row - 1 { run?.last = row; continue }
            if let r = run { try write(r) }
            run = (type, row, row)
        }
        rows.reset()   // not left stepping: the step drops the index it reads
        if let r = run { try write(r) }
    }

    /// Moves a type's queued rows up to its new mark to its synced count, counting them once
    /// through the runs (a mark only moves forward: `SampleStore.recordDelivery` takes the max).
    /// A run holds only rows of its type (or none: gone), so the rows of a run's row-id range are
    /// counted without reading a column of them, less the parked ones among them (through
    /// `samples_parked`, empty unless something was refused). Each delivered batch moves a mark:
    /// reading every row's type and state twice, as the first version of this trigger did, cost
    /// delivery 0.15–0.2 µs a sample (BENCHMARKS.md, "Issue 44: the mark's count once").
    static let typeCountsMarkMoved = """
        CREATE TRIGGER type_counts_mark_moved AFTER UPDATE OF synced_to ON types WHEN NEW.synced_to > OLD.synced_to BEGIN
            UPDATE type_counts SET (queued, synced) = (SELECT queued - n, synced + n FROM (SELECT
                (SELECT count(*) FROM queue_runs AS r, samples AS s
                    WHERE r.type = NEW.id AND r.last > OLD.synced_to AND r.first <= NEW.synced_to
                    AND s.rowid BETWEEN max(r.first, OLD.synced_to + 1) AND min(r.last, NEW.synced_to))
                - (SELECT count(*) FROM queue_runs AS r, samples AS p INDEXED BY samples_parked
                    WHERE r.type = NEW.id AND r.last > OLD.synced_to AND r.first <= NEW.synced_to
                    AND p.type = NEW.id AND p.state = 2
                    AND p.rowid BETWEEN max(r.first, OLD.synced_to + 1) AND min(r.last, NEW.synced_to)) AS n))
            WHERE type = NEW.id;
        END;
        """

    /// Step 7 (see above). A sample is parked (state 2), synced (state 0, at or below its
    /// type's mark) or queued (state 0, past the mark).
    static let typeCounts = """
        CREATE TABLE type_counts (
            type INTEGER PRIMARY KEY REFERENCES types(id),
            queued INTEGER NOT NULL DEFAULT 0,
            synced INTEGER NOT NULL DEFAULT 0,
            parked INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO type_counts(type, queued, synced, parked) SELECT id,
            (SELECT count(*) FROM samples WHERE samples.type = types.id AND state = 0 AND rowid > types.synced_to),
            (SELECT count(*) FROM samples WHERE samples.type = types.id AND state = 0 AND rowid <= types.synced_to),
            (SELECT count(*) FROM samples WHERE samples.type = types.id AND state = 2)
            FROM types;
        CREATE TRIGGER type_counts_new_type AFTER INSERT ON types BEGIN
            INSERT OR IGNORE INTO type_counts(type) VALUES (NEW.id);
        END;
        CREATE TRIGGER type_counts_row_deleted AFTER DELETE ON samples BEGIN
            UPDATE type_counts SET
                parked = parked - (OLD.state = 2),
                synced = synced - (OLD.state = 0 AND OLD.rowid <= (SELECT synced_to FROM types WHERE id = OLD.type)),
                queued = queued - (OLD.state = 0 AND OLD.rowid > (SELECT synced_to FROM types WHERE id = OLD.type))
            WHERE type = OLD.type;
        END;
        CREATE TRIGGER type_counts_row_moved AFTER UPDATE OF rowid, state, type ON samples BEGIN
            UPDATE type_counts SET
                parked = parked - (OLD.state = 2),
                synced = synced - (OLD.state = 0 AND OLD.rowid <= (SELECT synced_to FROM types WHERE id = OLD.type)),
                queued = queued - (OLD.state = 0 AND OLD.rowid > (SELECT synced_to FROM types WHERE id = OLD.type))
            WHERE type = OLD.type;
            UPDATE type_counts SET
                parked = parked + (NEW.state = 2),
                synced = synced + (NEW.state = 0 AND NEW.rowid <= (SELECT synced_to FROM types WHERE id = NEW.type)),
                queued = queued + (NEW.state = 0 AND NEW.rowid > (SELECT synced_to FROM types WHERE id = NEW.type))
            WHERE type = NEW.type;
        END;
        CREATE TRIGGER type_counts_mark_moved AFTER UPDATE OF synced_to ON types WHEN NEW.synced_to != OLD.synced_to BEGIN
            UPDATE type_counts SET
                queued = queued
                    - (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > OLD.synced_to AND rowid <= NEW.synced_to)
                    + (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > NEW.synced_to AND rowid <= OLD.synced_to),
                synced = synced
                    + (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > OLD.synced_to AND rowid <= NEW.synced_to)
                    - (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > NEW.synced_to AND rowid <= OLD.synced_to)
            WHERE type = NEW.id;
        END;
        """

    /// Applies the steps `PRAGMA user_version` says are missing, each in one transaction.
    /// `progress` hears a line before and after a step that rewrites an index of a store that
    /// holds samples (step 11: seconds on a store of millions), so a person who opens an old
    /// store knows why it waits.
    static func migrate(_ c: Connection, progress: ((String) -> Void)? = nil) throws(StoreError) {
        let s = try c.prepare("PRAGMA user_version")
        func version() throws(StoreError) -> Int {
            _ = try s.step()
            defer { s.reset() }   // a statement still stepping would keep DROP TABLE from running
            return Int(s.int(0))
        }
        guard try version() < migrations.count else { return }
        for (n, sql) in migrations.enumerated() {
            try c.exec("BEGIN IMMEDIATE")
            do {
                // Read again under the write lock: another process (the daemon and a CLI
                // command opening a new store together) may have applied this step meanwhile.
                var started: ContinuousClock.Instant?
                if try version() <= n {
                    if n + 1 == queueRunsStep, let progress, let rows = try newestRowID(c), rows > 0 {
                        progress("updating the store \(c.path) to schema step \(n + 1) (the send queue as runs of row ids; up to \(rows) samples); once, in one transaction")
                        started = .now
                    }
                    if n + 1 == queueRunsStep { try fillQueueRuns(c) }
                    try c.exec(sql)
                    try c.exec("PRAGMA user_version = \(n + 1)")
                }
                try c.exec("COMMIT")
                if let started, let progress {
                    let d = ContinuousClock.now - started
                    progress("the store \(c.path) is at schema step \(n + 1) (\(d.components.seconds).\(String(d.components.attoseconds / 100_000_000_000_000_000)) s)")
                }
            } catch {
                try? c.exec("ROLLBACK")
                throw error
            }
        }
    }

    /// The greatest row id of `samples` (nil when it has none): how many samples a step will
    /// meet, at most, without counting them.
    private static func newestRowID(_ c: Connection) throws(StoreError) -> Int64? {
        let s = try c.prepare("SELECT max(rowid) FROM samples")
        defer { s.reset() }   // not left stepping: the step drops an index
        _ = try s.step()
        return s.isNull(0) ? nil : s.int(0)
    }
}
