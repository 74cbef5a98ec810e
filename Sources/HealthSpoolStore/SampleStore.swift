import CSQLite
import HealthSpoolCore

/// What an insert did, per type.
public struct InsertResult: Sendable, Equatable {
    /// Samples stored for the first time.
    public var new = 0
    /// Samples already stored (same id), left as they were.
    public var duplicates = 0
    /// Revisable samples whose value changed: replaced and queued to be sent again.
    public var revised = 0
    /// Types that gained new or revised samples, with how many.
    public var gained: [String: Int] = [:]
    /// Duplicates by type.
    public var duplicatesByType: [String: Int] = [:]

    public init() {}

    public mutating func add(_ other: InsertResult) {
        new += other.new
        duplicates += other.duplicates
        revised += other.revised
        for (k, v) in other.gained { gained[k, default: 0] += v }
        for (k, v) in other.duplicatesByType { duplicatesByType[k, default: 0] += v }
    }
}

/// The local store: samples, their sync state, imports, sync history and small state values.
/// SQLite in WAL mode, file mode 0600. The only caller of `sqlite3_*`.
///
/// Not thread-safe: each thread or queue opens its own `SampleStore` on the same path (WAL
/// lets readers and one writer work together).
public final class SampleStore {
    let conn: Connection
    /// The database file.
    public var path: String { conn.path }
    /// Prepared `markSynced` statements by chunk size (a sender's batches are all one size).
    private var markStatements: [Int: Statement] = [:]

    private lazy var insertStmt = try! conn.prepare("""
        INSERT OR IGNORE INTO samples(id, type, value, unit, start_ms, start_off, end_ms, end_off,
            source_id, metadata, revisable, created_ms, rowid)
        VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
        """)
    private lazy var reviseStmt = try! conn.prepare("""
        UPDATE samples SET value = ?2, metadata = ?3, state = 0, synced_ms = NULL, source_id = ?4
        WHERE id = ?1 AND value != ?2
        """)
    private lazy var findSourceStmt = try! conn.prepare("SELECT id FROM sources WHERE name = ? AND version = ? AND device = ?")
    private lazy var addSourceStmt = try! conn.prepare("INSERT INTO sources(name, version, device) VALUES (?,?,?)")
    /// Source rows by content: sources repeat on every sample of an export, rows store an id.
    private var sourceIDs: [SampleSource: Int64] = [:]
    private var lastSource: (SampleSource, Int64)?
    private lazy var existsStmt = try! conn.prepare("SELECT 1 FROM samples WHERE id = ?")
    /// Whether the last batch was mostly duplicates (a cumulative export again): then each
    /// sample is first looked up by id, which costs less than preparing a full insert.
    private var probeFirst = false

    /// Opens (creating if needed) the store at `path`, with mode 0600.
    public init(path: String) throws(StoreError) {
        conn = try Connection(path: path)
        try conn.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384; PRAGMA wal_autocheckpoint=16384;")
        try Schema.migrate(conn)
    }

    /// The row id of a source, added when new.
    func sourceID(_ source: SampleSource) throws(StoreError) -> Int64 {
        // Consecutive samples nearly always share their source: compare before hashing.
        if let last = lastSource, last.0 == source { return last.1 }
        if let id = sourceIDs[source] { lastSource = (source, id); return id }
        let f = findSourceStmt
        f.bind(1, source.name); f.bind(2, source.version ?? ""); f.bind(3, source.device ?? "")
        defer { f.reset() }
        let id: Int64
        if try f.step() {
            id = f.int(0)
        } else {
            let a = addSourceStmt
            a.bind(1, source.name); a.bind(2, source.version ?? ""); a.bind(3, source.device ?? "")
            try a.run()
            id = sqlite3_last_insert_rowid(conn.db)
        }
        if sourceIDs.count > 10_000 { sourceIDs.removeAll() }
        sourceIDs[source] = id
        lastSource = (source, id)
        return id
    }

    /// Runs `body` in one write transaction.
    public func transaction<T>(_ body: () throws -> T) throws -> T { try conn.transaction(body) }

    /// Stores samples; duplicates (same id) are ignored, revisable samples with a new value
    /// replace the stored one and are queued again. Call inside `transaction` for speed.
    public func insert(_ samples: [Sample], now: Timestamp) throws(StoreError) -> InsertResult {
        // Row ids are assigned from max(rowid) below: only safe inside one write transaction.
        if sqlite3_get_autocommit(conn.db) != 0 {
            do { return try conn.transaction { try insertInTransaction(samples, now: now) } } catch let e as StoreError { throw e } catch {
                throw StoreError(path: path, code: -1, message: "\(error)")
            }
        }
        return try insertInTransaction(samples, now: now)
    }

    private func insertInTransaction(_ samples: [Sample], now: Timestamp) throws(StoreError) -> InsertResult {
        var result = InsertResult()
        let s = insertStmt
        // In id order, the random-key UNIQUE index is walked front to back instead of at random.
        // Row ids follow the input order (the order samples are sent in), but rows are inserted
        // in id order, so the random-key UNIQUE index is walked front to back, not at random.
        let maxRow = try conn.prepare("SELECT coalesce(max(rowid), 0) FROM samples")
        _ = try maxRow.step()
        let base = maxRow.int(0) + 1
        let keys = samples.map(\.id.prefix64)
        let order = samples.indices.sorted { keys[$0] < keys[$1] }
        let exists = existsStmt
        for index in order {
            let sample = samples[index]
            if probeFirst && !sample.revisable {
                exists.bind(1, blob: sample.id.bytes)
                let known = try exists.step()
                sqlite3_reset(exists.stmt)
                if known {
                    result.duplicates += 1
                    result.duplicatesByType[sample.type, default: 0] += 1
                    continue
                }
            }
            let metadata = Self.encodeMetadata(sample.metadata)
            s.bind(1, blob: sample.id.bytes)
            s.bind(2, sample.type)
            s.bind(3, sample.value)
            s.bind(4, sample.unit)
            s.bind(5, sample.start.millis)
            s.bind(6, Int64(sample.start.utcOffsetSeconds))
            s.bind(7, sample.end.millis)
            s.bind(8, Int64(sample.end.utcOffsetSeconds))
            s.bind(9, try sourceID(sample.source))
            s.bind(10, metadata)
            s.bind(11, sample.revisable ? 1 : 0)
            s.bind(12, now.millis)
            s.bind(13, base + Int64(index))
            try s.runKeepingBindings()
            if conn.changes == 1 {
                result.new += 1
                result.gained[sample.type, default: 0] += 1
                continue
            }
            if sample.revisable {
                let r = reviseStmt
                r.bind(1, blob: sample.id.bytes)
                r.bind(2, sample.value)
                r.bind(3, metadata)
                r.bind(4, try sourceID(sample.source))
                try r.run()
                if conn.changes == 1 {
                    result.revised += 1
                    result.gained[sample.type, default: 0] += 1
                    continue
                }
            }
            result.duplicates += 1
            result.duplicatesByType[sample.type, default: 0] += 1
        }
        if !samples.isEmpty { probeFirst = result.duplicates * 2 > samples.count }
        return result
    }

    static func encodeMetadata(_ m: [String: String]) -> String? {
        guard !m.isEmpty else { return nil }
        var w = JSONWriter(capacity: 64)
        w.raw("{")
        for (n, k) in m.keys.sorted().enumerated() {
            if n > 0 { w.raw(",") }
            w.key(k)
            w.string(m[k]!)
        }
        w.raw("}")
        return w.text
    }

    static func decodeMetadata(_ text: String?) -> [String: String] {
        guard let text, text != "{}", let v = try? JSONParser.parse(text), let members = v.objectValue else { return [:] }
        var out: [String: String] = [:]
        for (k, mv) in members { out[k] = mv.stringValue ?? "" }
        return out
    }

    private static let sampleColumns = """
        samples.rowid, type, value, unit, start_ms, start_off, end_ms, end_off, sources.name, sources.version,
        sources.device, metadata, revisable, created_ms, samples.id
        """
    /// The table expression the sample columns are read from.
    private static let sampleTables = "samples JOIN sources ON sources.id = samples.source_id"

    func readSample(_ s: Statement) -> StoredSample {
        let source = SampleSource(name: s.string(8) ?? "", version: s.string(9).flatMap { $0.isEmpty ? nil : $0 },
                                  device: s.string(10).flatMap { $0.isEmpty ? nil : $0 })
        // The id it was stored under: no SHA-256 per sample read back.
        let sample = Sample(storedID: SampleID(bytes: s.blob(14)), type: s.string(1) ?? "", value: s.double(2), unit: s.string(3) ?? "",
                            start: Timestamp(millis: s.int(4), utcOffsetSeconds: Int32(s.int(5))),
                            end: Timestamp(millis: s.int(6), utcOffsetSeconds: Int32(s.int(7))),
                            source: source, metadata: Self.decodeMetadata(s.string(11)), revisable: s.int(12) != 0)
        return StoredSample(sample: sample, createdAt: Timestamp(millis: s.int(13)), rowID: s.int(0))
    }

    /// Up to `limit` queued (unsynced, not parked) samples of `type`, oldest first, with row id
    /// greater than `afterRowID`.
    public func queued(type: String, limit: Int, afterRowID: Int64 = 0) throws(StoreError) -> [StoredSample] {
        let s = try conn.prepare("SELECT \(Self.sampleColumns) FROM \(Self.sampleTables) WHERE state = 0 AND type = ? AND samples.rowid > ? ORDER BY samples.rowid LIMIT ?")
        s.bind(1, type)
        s.bind(2, afterRowID)
        s.bind(3, limit)
        var out: [StoredSample] = []
        while try s.step() { out.append(readSample(s)) }
        return out
    }

    /// Marks samples synced, but only those whose stored value is still the one that was sent
    /// (a revision that arrived meanwhile stays queued).
    public func markSynced(_ sent: [StoredSample], at now: Timestamp) throws {
        // One statement per chunk (UPDATE … FROM VALUES, SQLite ≥ 3.33): about twice as fast as
        // a statement per row; the per-row form stays as the fallback.
        if sent.count > 1, let done = try? markSyncedInChunks(sent, at: now), done { return }
        let s = try conn.prepare("UPDATE samples SET state = 1, synced_ms = ? WHERE rowid = ? AND state = 0 AND value = ?")
        try conn.transaction {
            for item in sent {
                s.bind(1, now.millis)
                s.bind(2, item.rowID)
                s.bind(3, item.sample.value)
                try s.run()
            }
        }
    }

    /// `markSynced` with one UPDATE per chunk of up to 500 samples; false when this SQLite
    /// cannot (nothing was changed then).
    func markSyncedInChunks(_ sent: [StoredSample], at now: Timestamp) throws -> Bool {
        let chunk = 500
        func statement(_ n: Int) throws(StoreError) -> Statement {
            if let s = markStatements[n] { return s }
            if markStatements.count >= 8 { markStatements.removeAll() }
            let values = Array(repeating: "(?, ?)", count: n).joined(separator: ", ")
            let s = try conn.prepare("""
                UPDATE samples SET state = 1, synced_ms = ?
                FROM (SELECT column1 AS rid, column2 AS val FROM (VALUES \(values))) AS sent
                WHERE samples.rowid = sent.rid AND samples.state = 0 AND samples.value = sent.val
                """)
            markStatements[n] = s
            return s
        }
        guard (try? statement(min(chunk, sent.count))) != nil else { return false }
        try conn.transaction {
            var start = 0
            while start < sent.count {
                let part = sent[start..<min(start + chunk, sent.count)]
                let s = try statement(part.count)
                s.bind(1, now.millis)
                var i: Int32 = 2
                for item in part {
                    s.bind(i, item.rowID)
                    s.bind(i + 1, item.sample.value)
                    i += 2
                }
                try s.run()
                start += chunk
            }
        }
        return true
    }

    /// Parks samples the gateway rejected as bad (dead letters), with the reason.
    public func park(_ rejected: [(StoredSample, String)], at now: Timestamp) throws {
        let s = try conn.prepare("UPDATE samples SET state = 2, dead_reason = ?, synced_ms = ? WHERE rowid = ?")
        try conn.transaction {
            for (item, reason) in rejected {
                s.bind(1, reason)
                s.bind(2, now.millis)
                s.bind(3, item.rowID)
                try s.run()
            }
        }
    }

    /// Puts parked samples back in the queue; returns how many, by type.
    public func requeueDeadLetters(type: String? = nil) throws(StoreError) -> [String: Int] {
        let before = try deadLetterCounts()
        let s = try conn.prepare("UPDATE samples SET state = 0, dead_reason = NULL, synced_ms = NULL WHERE state = 2 AND (?1 IS NULL OR type = ?1)")
        s.bind(1, type)
        try s.run()
        return type.map { t in before.filter { $0.key == t } } ?? before
    }

    /// Parked samples: (sample, reason), newest first.
    public func deadLetters(limit: Int = 100) throws(StoreError) -> [(StoredSample, String)] {
        let s = try conn.prepare("SELECT \(Self.sampleColumns), dead_reason FROM \(Self.sampleTables) WHERE state = 2 ORDER BY synced_ms DESC, samples.rowid DESC LIMIT ?")
        s.bind(1, limit)
        var out: [(StoredSample, String)] = []
        while try s.step() { out.append((readSample(s), s.string(15) ?? "")) }
        return out
    }

    private func countsByType(state: Int) throws(StoreError) -> [String: Int] {
        let s = try conn.prepare("SELECT type, count(*) FROM samples WHERE state = ? GROUP BY type")
        s.bind(1, state)
        var out: [String: Int] = [:]
        while try s.step() { out[s.string(0) ?? ""] = Int(s.int(1)) }
        return out
    }

    /// Queued sample counts by type.
    public func queuedCounts() throws(StoreError) -> [String: Int] { try countsByType(state: 0) }
    /// Synced sample counts by type.
    public func syncedCounts() throws(StoreError) -> [String: Int] { try countsByType(state: 1) }
    /// Parked sample counts by type.
    public func deadLetterCounts() throws(StoreError) -> [String: Int] { try countsByType(state: 2) }

    /// The types that have queued samples.
    public func typesWithQueuedSamples() throws(StoreError) -> [String] { try queuedCounts().keys.sorted() }

    /// Samples whose local interval overlaps a day, for `healthspool day`.
    public func samples(type: String, fromMillis: Int64, toMillis: Int64) throws(StoreError) -> [StoredSample] {
        let s = try conn.prepare("SELECT \(Self.sampleColumns) FROM \(Self.sampleTables) WHERE type = ? AND start_ms < ? AND end_ms >= ? ORDER BY start_ms")
        s.bind(1, type)
        s.bind(2, toMillis)
        s.bind(3, fromMillis)
        var out: [StoredSample] = []
        while try s.step() { out.append(readSample(s)) }
        return out
    }

    /// Removes synced samples older than `olderThanMillis` (by end date); returns how many.
    public func pruneSynced(olderThanMillis: Int64) throws(StoreError) -> Int {
        let s = try conn.prepare("DELETE FROM samples WHERE state = 1 AND end_ms < ?")
        s.bind(1, olderThanMillis)
        try s.run()
        return conn.changes
    }

    /// Removes the oldest synced samples until at most `keep` synced remain; returns how many.
    public func pruneOldestSynced(keeping keep: Int) throws(StoreError) -> Int {
        let s = try conn.prepare("""
            DELETE FROM samples WHERE rowid IN (SELECT rowid FROM samples WHERE state = 1 ORDER BY end_ms
            LIMIT max(0, (SELECT count(*) FROM samples WHERE state = 1) - ?))
            """)
        s.bind(1, keep)
        try s.run()
        return conn.changes
    }

    /// Returns free pages to the file system (after large prunes).
    public func vacuum() throws(StoreError) { try conn.exec("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;") }

    /// Database size in bytes (pages in use).
    public func sizeBytes() throws(StoreError) -> Int64 {
        let s = try conn.prepare("SELECT (page_count - freelist_count) * page_size FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()")
        _ = try s.step()
        return s.int(0)
    }

    /// Total sample count.
    public func sampleCount() throws(StoreError) -> Int {
        let s = try conn.prepare("SELECT count(*) FROM samples")
        _ = try s.step()
        return Int(s.int(0))
    }
}
