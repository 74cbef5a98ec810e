import HealthSpoolCore

/// One import, as recorded.
public struct ImportRecord: Sendable, Equatable {
    public var file: String
    public var fingerprint: String?
    public var format: String?
    public var at: Timestamp
    public var durationMillis: Int64
    /// imported, partial, failed or unchanged.
    public var outcome: String
    public var new: Int
    public var duplicates: Int
    public var revised: Int
    public var skipped: Int
    public var reason: String?

    public init(file: String, fingerprint: String? = nil, format: String? = nil, at: Timestamp, durationMillis: Int64 = 0,
                outcome: String, new: Int = 0, duplicates: Int = 0, revised: Int = 0, skipped: Int = 0, reason: String? = nil) {
        self.file = file
        self.fingerprint = fingerprint
        self.format = format
        self.at = at
        self.durationMillis = durationMillis
        self.outcome = outcome
        self.new = new
        self.duplicates = duplicates
        self.revised = revised
        self.skipped = skipped
        self.reason = reason
    }
}

/// One sync attempt, as recorded.
public struct SyncAttempt: Sendable, Equatable {
    public var started: Timestamp
    public var durationMillis: Int64
    /// What triggered it: observer, startup, manual, schedule, unlock, network, retry.
    public var trigger: String
    public var types: [String]
    /// success, partial or failed.
    public var outcome: String
    public var count: Int
    public var httpStatus: Int?
    public var error: String?

    public init(started: Timestamp, durationMillis: Int64, trigger: String, types: [String], outcome: String,
                count: Int, httpStatus: Int? = nil, error: String? = nil) {
        self.started = started
        self.durationMillis = durationMillis
        self.trigger = trigger
        self.types = types
        self.outcome = outcome
        self.count = count
        self.httpStatus = httpStatus
        self.error = error
    }
}

extension SampleStore {
    /// Records an import.
    public func recordImport(_ r: ImportRecord) throws(StoreError) {
        let s = try conn.prepare("""
            INSERT INTO imports(file, fingerprint, format, at_ms, duration_ms, outcome, new, duplicates, revised, skipped, reason)
            VALUES (?,?,?,?,?,?,?,?,?,?,?)
            """)
        s.bind(1, r.file); s.bind(2, r.fingerprint); s.bind(3, r.format); s.bind(4, r.at.millis)
        s.bind(5, r.durationMillis); s.bind(6, r.outcome); s.bind(7, r.new); s.bind(8, r.duplicates)
        s.bind(9, r.revised); s.bind(10, r.skipped); s.bind(11, r.reason)
        try s.run()
    }

    /// Whether a file with this fingerprint was already imported completely.
    public func hasImported(fingerprint: String) throws(StoreError) -> Bool {
        let s = try conn.prepare("SELECT 1 FROM imports WHERE fingerprint = ? AND outcome IN ('imported', 'unchanged') LIMIT 1")
        s.bind(1, fingerprint)
        return try s.step()
    }

    /// Recent imports, newest first.
    public func imports(limit: Int) throws(StoreError) -> [ImportRecord] {
        let s = try conn.prepare("""
            SELECT file, fingerprint, format, at_ms, duration_ms, outcome, new, duplicates, revised, skipped, reason
            FROM imports ORDER BY id DESC LIMIT ?
            """)
        s.bind(1, limit)
        var out: [ImportRecord] = []
        while try s.step() {
            out.append(ImportRecord(file: s.string(0) ?? "", fingerprint: s.string(1), format: s.string(2),
                                    at: Timestamp(millis: s.int(3)), durationMillis: s.int(4), outcome: s.string(5) ?? "",
                                    new: Int(s.int(6)), duplicates: Int(s.int(7)), revised: Int(s.int(8)),
                                    skipped: Int(s.int(9)), reason: s.string(10)))
        }
        return out
    }

    /// Records a sync attempt; keeps the newest 1,000.
    public func recordSync(_ a: SyncAttempt) throws(StoreError) {
        let s = try conn.prepare("""
            INSERT INTO sync_history(started_ms, duration_ms, trigger, types, outcome, count, http_status, error)
            VALUES (?,?,?,?,?,?,?,?)
            """)
        s.bind(1, a.started.millis); s.bind(2, a.durationMillis); s.bind(3, a.trigger)
        s.bind(4, a.types.joined(separator: ",")); s.bind(5, a.outcome); s.bind(6, a.count)
        if let h = a.httpStatus { s.bind(7, h) } else { s.bind(7, nil as String?) }
        s.bind(8, a.error)
        try s.run()
        try conn.exec("DELETE FROM sync_history WHERE id <= (SELECT max(id) - 1000 FROM sync_history)")
    }

    /// Recent sync attempts, newest first.
    public func syncHistory(limit: Int) throws(StoreError) -> [SyncAttempt] {
        let s = try conn.prepare("""
            SELECT started_ms, duration_ms, trigger, types, outcome, count, http_status, error
            FROM sync_history ORDER BY id DESC LIMIT ?
            """)
        s.bind(1, limit)
        var out: [SyncAttempt] = []
        while try s.step() {
            out.append(SyncAttempt(started: Timestamp(millis: s.int(0)), durationMillis: s.int(1), trigger: s.string(2) ?? "",
                                   types: (s.string(3) ?? "").split(separator: ",").map(String.init),
                                   outcome: s.string(4) ?? "", count: Int(s.int(5)),
                                   httpStatus: s.isNull(6) ? nil : Int(s.int(6)), error: s.string(7)))
        }
        return out
    }

    /// The last successful sync, if any.
    public func lastSuccessfulSync() throws(StoreError) -> SyncAttempt? {
        try syncHistory(limit: 200).first { $0.outcome == "success" }
    }

    /// A small state value.
    public func state(_ key: String) throws(StoreError) -> String? {
        let s = try conn.prepare("SELECT value FROM state WHERE key = ?")
        s.bind(1, key)
        return try s.step() ? s.string(0) : nil
    }

    /// Sets (or, with nil, removes) a small state value.
    public func setState(_ key: String, _ value: String?) throws(StoreError) {
        if let value {
            let s = try conn.prepare("INSERT INTO state(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            s.bind(1, key); s.bind(2, value)
            try s.run()
        } else {
            let s = try conn.prepare("DELETE FROM state WHERE key = ?")
            s.bind(1, key)
            try s.run()
        }
    }

    /// Stores profile data (Apple Health's `Me`): local only, never sent.
    public func setProfile(_ attributes: [(String, String)], at now: Timestamp) throws(StoreError) {
        let s = try conn.prepare("INSERT INTO profile(key, value, updated_ms) VALUES (?,?,?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms")
        for (k, v) in attributes {
            s.bind(1, k); s.bind(2, v); s.bind(3, now.millis)
            try s.run()
        }
    }

    /// The stored profile.
    public func profile() throws(StoreError) -> [(String, String)] {
        let s = try conn.prepare("SELECT key, value FROM profile ORDER BY key")
        var out: [(String, String)] = []
        while try s.step() { out.append((s.string(0) ?? "", s.string(1) ?? "")) }
        return out
    }
}
