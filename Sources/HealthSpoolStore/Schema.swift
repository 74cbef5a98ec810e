import HealthSpoolCore

/// The store's schema, applied in numbered steps recorded in `PRAGMA user_version`.
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
    ]

    static func migrate(_ c: Connection) throws(StoreError) {
        let s = try c.prepare("PRAGMA user_version")
        _ = try s.step()
        let version = Int(s.int(0))
        for (n, sql) in migrations.enumerated() where n >= version {
            try c.exec("BEGIN IMMEDIATE")
            do {
                try c.exec(sql)
                try c.exec("PRAGMA user_version = \(n + 1)")
                try c.exec("COMMIT")
            } catch {
                try? c.exec("ROLLBACK")
                throw error
            }
        }
    }
}
