/// The health journal's tables (schema step 4). Independent of the other steps' tables: it
/// only adds two columns to `samples` (a journal record's version and tombstone flag).
///
/// Entries keep their own rows (what `healthspool journal` reads, by local day through
/// `*_day` indexes); each version of an entry or score is also put in line in `samples`
/// under a journal type, where the sync worker delivers it like any sample.
enum SymptomJournalSchema {
    static let step4 = """
        ALTER TABLE samples ADD COLUMN version INTEGER NOT NULL DEFAULT 0;  -- journal records: 1, 2, …
        ALTER TABLE samples ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;  -- 1: a deleted entry's tombstone
        CREATE TABLE journal_categories (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE journal_symptoms (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            category_id INTEGER NOT NULL REFERENCES journal_categories(id),
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE journal_factors (                 -- the user's lists: relieving, aggravating, lifestyle
            kind TEXT NOT NULL,
            name TEXT NOT NULL COLLATE NOCASE,
            PRIMARY KEY (kind, name)
        ) WITHOUT ROWID;
        CREATE TABLE symptom_entries (
            id BLOB PRIMARY KEY,
            symptom TEXT NOT NULL,
            category TEXT NOT NULL,
            at_ms INTEGER NOT NULL,
            at_off INTEGER NOT NULL,
            day INTEGER NOT NULL,                      -- local day (days since 1970-01-01) in at_off
            time_of_day TEXT NOT NULL,
            severity INTEGER NOT NULL,
            relieved TEXT NOT NULL DEFAULT '[]',       -- JSON arrays of names
            aggravated TEXT NOT NULL DEFAULT '[]',
            note TEXT,
            origin TEXT NOT NULL,
            version INTEGER NOT NULL,
            deleted INTEGER NOT NULL DEFAULT 0,
            created_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX symptom_entries_day ON symptom_entries(day);
        CREATE TABLE lifestyle_entries (
            id BLOB PRIMARY KEY,
            factor TEXT NOT NULL,
            at_ms INTEGER NOT NULL,
            at_off INTEGER NOT NULL,
            day INTEGER NOT NULL,
            time_of_day TEXT NOT NULL,
            amount REAL,
            unit TEXT,
            level TEXT,
            note TEXT,
            version INTEGER NOT NULL,
            deleted INTEGER NOT NULL DEFAULT 0,
            created_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX lifestyle_entries_day ON lifestyle_entries(day);
        CREATE TABLE symptom_scores (
            day INTEGER NOT NULL,
            scope TEXT NOT NULL,                       -- category or symptom
            name TEXT NOT NULL COLLATE NOCASE,
            score INTEGER NOT NULL,
            entries INTEGER NOT NULL,
            version INTEGER NOT NULL,
            start_ms INTEGER NOT NULL,                 -- the record's start as queued (to find it again)
            PRIMARY KEY (day, scope, name)
        ) WITHOUT ROWID;
        CREATE TABLE symptom_scored_days (             -- days whose scores are stored (final)
            day INTEGER PRIMARY KEY,
            computed_ms INTEGER NOT NULL
        );
        """
}
