import CSQLite
import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// What an insert did, per type.
public struct InsertResult: Sendable, Equatable {
    /// Samples stored for the first time.
    public var new = 0
    /// Samples already stored (same id), left as they were.
    public var duplicates = 0
    /// Revisable samples whose value changed: replaced and queued to be sent again.
    public var revised = 0
    /// New samples older than the newest already stored for their type and source (late data).
    public var late = 0
    /// Types that gained new or revised samples, with how many.
    public var gained: [String: Int] = [:]
    /// Duplicates by type.
    public var duplicatesByType: [String: Int] = [:]

    public init() {}

    public mutating func add(_ other: InsertResult) {
        new += other.new
        duplicates += other.duplicates
        revised += other.revised
        late += other.late
        for (k, v) in other.gained { gained[k, default: 0] += v }
        for (k, v) in other.duplicatesByType { duplicatesByType[k, default: 0] += v }
    }
}

/// The local store: samples, their sync state, imports, sync history and small state values.
/// SQLite in WAL mode, file mode 0600. The only caller of `sqlite3_*`.
///
/// Row ids are the send order. Each type has a mark (`types.synced_to`): its rows up to the mark
/// were delivered (or parked), the rows past it are its queue, found through the runs of row ids
/// that hold them (`SampleStore+QueueRuns`). A revised sample, a sample to send again and a dead
/// letter put back in line all move to a fresh row id past every mark, and their run is recorded.
///
/// Not thread-safe: each thread or queue opens its own `SampleStore` on the same path (WAL
/// lets readers and one writer work together).
public final class SampleStore {
    package let conn: Connection
    /// The database file.
    public var path: String { conn.path }

    private static let insertStmtSQL = """
        INSERT OR IGNORE INTO samples(rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off,
            source_id, metadata, revisable, created_ms, full_export)
        VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
        """
    private let insertStmt: Statement
    private static let reviseStmtSQL = """
        UPDATE samples SET rowid = ?5, value = ?4, metadata = ?6, source_id = ?7, state = 0, parked_ms = NULL, dead_reason = NULL
        WHERE type = ?1 AND start_ms = ?2 AND id = ?3 AND value != ?4
        """
    private let reviseStmt: Statement
    private static let existsStmtSQL = "SELECT 1 FROM samples WHERE type = ? AND start_ms = ? AND id = ?"
    private let existsStmt: Statement
    /// A pruned sample's delivered record: a row when it was delivered, with its value when revisable.
    private static let deliveredStmtSQL = "SELECT value FROM delivered WHERE id = ?"
    private let deliveredStmt: Statement
    private static let anyDeliveredStmtSQL = "SELECT EXISTS (SELECT 1 FROM delivered)"
    private let anyDeliveredStmt: Statement
    private static let findSourceStmtSQL = "SELECT id FROM sources WHERE name = ? AND version = ? AND device = ?"
    private let findSourceStmt: Statement
    private static let addSourceStmtSQL = "INSERT INTO sources(name, version, device) VALUES (?,?,?)"
    private let addSourceStmt: Statement
    private static let sourceByIDStmtSQL = "SELECT name, version, device FROM sources WHERE id = ?"
    private let sourceByIDStmt: Statement
    private static let queuedStmtSQL = SampleStore.queueQuery(SampleStore.sampleColumns)
    private let queuedStmt: Statement
    /// The queue as the sync path reads it: only what goes on the wire (`batchColumns`).
    private static let queuedBatchStmtSQL = SampleStore.queueQuery(SampleStore.batchColumns)
    private let queuedBatchStmt: Statement

    /// Moves a type's sync mark forward (never back); prepared once, run after every batch.
    private static let markStmtSQL = "UPDATE types SET synced_to = max(synced_to, ?) WHERE id = ?"
    private let markStmt: Statement
    private static let nextRowStmtSQL = """
        SELECT max(coalesce((SELECT max(rowid) FROM samples), 0), coalesce((SELECT max(synced_to) FROM types), 0),
            coalesce((SELECT max(last) FROM queue_runs), 0)) + 1
        """
    private let nextRowStmt: Statement
    /// Source rows by content: sources repeat on every sample of an export, rows store an id.
    private var sourceIDs: [SampleSource: Int64] = [:]
    private var lastSource: (SampleSource, Int64)?
    /// Sources by row id, for reading samples back (rows never change once written).
    private var sourcesByID: [Int64: SampleSource] = [:]
    private var lastSourceByID: (Int64, SampleSource)?
    /// Units and metadata repeat from row to row: read back as the same Strings.
    private var unitCache = TextCache(), metadataCache = TextCache()
    /// Type ids by name and back (rows never change once written).
    private var typeIDs: [String: Int64] = [:]
    private var typeNames: [Int64: String] = [:]
    /// Whether the last batch was mostly duplicates (a cumulative export again): then each
    /// sample is first looked up by id, which costs less than preparing a full insert.
    private var probeFirst = false
    /// The daily rollups' policy and the days the open transaction changed (`SampleStore+Rollups`).
    var rollups = RollupTracker()
    /// Whether the samples inserted now come from a full Apple Health export (`full_export`).
    public var storingFullExport = false
    /// New samples per source and type, for `source_freshness` (`SampleStore+Freshness`).
    var arrivals = ArrivalTracker()
    /// Statements prepared once by `cached`, by their SQL.
    private var statementCache: [String: Statement] = [:]

    /// The statement for `sql`, prepared on first use and kept.
    func cached(_ sql: String) throws(StoreError) -> Statement {
        if let s = statementCache[sql] { return s }
        let s = try conn.prepare(sql)
        statementCache[sql] = s
        return s
    }

    /// Runs `body` again while another connection holds the lock that setting up a store needs
    /// (switching a new file to WAL, a migration step): the daemon's services and a command open
    /// a new store together, and SQLite answers such a conflict at once, without its busy
    /// timeout, where waiting could deadlock. Gives up after about 15 s with SQLite's error.
    /// Returns how many times it tried again.
    @discardableResult
    static func retryingWhileBusy(_ body: () throws(StoreError) -> Void) throws(StoreError) -> Int {
        var retries = 0
        while true {
            do {
                try body()
                return retries
            } catch {
                guard error.isRetryable, retries < 300 else { throw error }
                usleep(50_000)
                retries += 1
            }
        }
    }

    /// How many times opening this store tried again while another connection held the lock
    /// it needed (0 nearly always).
    let openRetries: Int

    /// How long a command a person runs (a journal entry from the CLI or the web) waits for
    /// the daemon's write lock before it gives up and says the entry was not saved.
    public static let interactiveBusyTimeout: Duration = .seconds(30)

    /// A connection's page cache unless told otherwise (`limitPageCache`).
    public static let pageCacheKiB = 16384

    /// The WAL size (pages) at which a commit copies the WAL into the database.
    static let walAutocheckpointPages: Int32 = 16384

    /// Opens (creating if needed) the store at `path`, with mode 0600. A statement that finds
    /// the store locked by another connection waits up to `busyTimeout` (5 s unless told)
    /// before failing with a busy `StoreError`.
    public init(path: String, busyTimeout: Duration? = nil) throws(StoreError) {
        let millis = busyTimeout.map { $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 }
        let conn = try Connection(path: path, busyTimeoutMillis: millis ?? Connection.defaultBusyTimeoutMillis)
        openRetries = try Self.retryingWhileBusy { () throws(StoreError) in
            // The steps run with SQLite's temporary data in a file: dropping the queue index (step 11)
            // keeps a copy of every page it frees for the statement, 40 MB in memory for 2.4 M samples.
            try conn.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA temp_store=FILE; PRAGMA cache_size=-\(Self.pageCacheKiB); PRAGMA wal_autocheckpoint=\(Self.walAutocheckpointPages);")
            try Schema.migrate(conn) { line in
                let text = "healthspool: \(line)\n"
                _ = text.withCString { write(2, $0, strlen($0)) }   // standard error, unbuffered
            }
            try Schema.indexManualEntries(conn)
            try conn.exec("PRAGMA temp_store=MEMORY")
        }
        // Every statement is prepared here, once: a statement that does not prepare is an error
        // of opening the store, not a crash later.
        insertStmt = try conn.prepare(Self.insertStmtSQL)
        reviseStmt = try conn.prepare(Self.reviseStmtSQL)
        existsStmt = try conn.prepare(Self.existsStmtSQL)
        deliveredStmt = try conn.prepare(Self.deliveredStmtSQL)
        anyDeliveredStmt = try conn.prepare(Self.anyDeliveredStmtSQL)
        findSourceStmt = try conn.prepare(Self.findSourceStmtSQL)
        addSourceStmt = try conn.prepare(Self.addSourceStmtSQL)
        sourceByIDStmt = try conn.prepare(Self.sourceByIDStmtSQL)
        queuedStmt = try conn.prepare(Self.queuedStmtSQL)
        queuedBatchStmt = try conn.prepare(Self.queuedBatchStmtSQL)
        markStmt = try conn.prepare(Self.markStmtSQL)
        nextRowStmt = try conn.prepare(Self.nextRowStmtSQL)
        self.conn = conn
    }

    /// Makes every commit on this connection durable before it returns (`synchronous=FULL`: the
    /// WAL is fsynced at each commit), for a caller that acts on the commit outside the store
    /// (the importer moves the file out of the spool). Other connections keep `NORMAL`.
    public func requireDurableCommits() throws(StoreError) {
        try conn.exec("PRAGMA synchronous=FULL")
    }

    /// This connection's `PRAGMA synchronous`: 0 off, 1 normal, 2 full, 3 extra.
    func synchronousMode() throws(StoreError) -> Int {
        let s = try conn.prepare("PRAGMA synchronous")
        _ = try s.step()
        return Int(s.int(0))
    }

    /// Caps this connection's page cache. A connection that walks the queue front to back reuses
    /// no page once past it: a small cache is recycled instead of growing to 16 MiB a page at a
    /// time (a `malloc`, often an `mprotect`, per page read).
    public func limitPageCache(kibibytes: Int) throws(StoreError) {
        try conn.exec("PRAGMA cache_size=-\(max(64, kibibytes))")
    }

    /// The row id of a source, added when new.
    package func sourceID(_ source: SampleSource) throws(StoreError) -> Int64 {
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

    /// The source stored under `id`.
    func source(id: Int64) throws(StoreError) -> SampleSource {
        if let last = lastSourceByID, last.0 == id { return last.1 }
        if let s = sourcesByID[id] { lastSourceByID = (id, s); return s }
        let s = sourceByIDStmt
        s.bind(1, id)
        defer { s.reset() }
        let source = try s.step()
            ? SampleSource(name: s.string(0) ?? "", version: s.string(1).flatMap { $0.isEmpty ? nil : $0 },
                           device: s.string(2).flatMap { $0.isEmpty ? nil : $0 })
            : SampleSource(name: "")
        if sourcesByID.count > 10_000 { sourcesByID.removeAll() }
        sourcesByID[id] = source
        lastSourceByID = (id, source)
        return source
    }

    /// The id of a type; nil when it has no row and `create` is false.
    package func typeID(_ name: String, create: Bool) throws(StoreError) -> Int64? {
        if let id = typeIDs[name] { return id }
        let f = try conn.prepare("SELECT id FROM types WHERE name = ?")
        f.bind(1, name)
        var id: Int64?
        if try f.step() {
            id = f.int(0)
        } else if create {
            let a = try conn.prepare("INSERT INTO types(name) VALUES (?)")
            a.bind(1, name)
            try a.run()
            id = sqlite3_last_insert_rowid(conn.db)
        }
        if let id { typeIDs[name] = id; typeNames[id] = name }
        return id
    }

    /// The name of the type stored under `id`.
    func typeName(_ id: Int64) throws(StoreError) -> String {
        if let n = typeNames[id] { return n }
        let f = try conn.prepare("SELECT name FROM types WHERE id = ?")
        f.bind(1, id)
        let name = try f.step() ? f.string(0) ?? "" : ""
        typeIDs[name] = id
        typeNames[id] = name
        return name
    }

    /// The first row id no row, mark or run has used: rows added now come after every mark.
    package func nextRowID() throws(StoreError) -> Int64 {
        let s = nextRowStmt
        defer { s.reset() }
        _ = try s.step()
        return s.int(0)
    }

    /// Opens a write transaction, for a caller that inserts in several steps (`insert` joins it).
    public func begin() throws(StoreError) { try conn.exec("BEGIN IMMEDIATE") }
    /// Brings the rollups of the days written up to date, then commits the transaction `begin` opened.
    public func commit() throws(StoreError) {
        try flushRollups()
        try flushArrivalsUnlessHeld()
        try conn.exec("COMMIT")
        arrivals.committed()
    }
    /// After a commit, lets writers of other connections (a journal command, the sync worker)
    /// that wait for the write lock take it first: pauses while any waits, at most `max`.
    /// Returns how long it paused.
    @discardableResult
    public func letWaitingWritersIn(max: Duration = .seconds(1)) -> Duration {
        .milliseconds(conn.letWaitingWritersIn(maxMillis: max.components.seconds * 1000 + max.components.attoseconds / 1_000_000_000_000_000))
    }
    /// Abandons the transaction `begin` opened, if it is still open.
    public func rollback() {
        rollups.dirty = [:]
        arrivals.rolledBack()
        if sqlite3_get_autocommit(conn.db) == 0 { try? conn.exec("ROLLBACK") }
    }

    /// Runs `body` in one write transaction.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        do {
            let result = try conn.transaction { () throws -> T in
                let v = try body()
                try flushRollups()
                try flushArrivalsUnlessHeld()
                return v
            }
            arrivals.committed()
            return result
        } catch {
            rollups.dirty = [:]
            arrivals.rolledBack()
            throw error
        }
    }

    /// Runs `body`'s reads in one read transaction: in WAL mode they all see the store as it was
    /// at the first read, so counts taken one after the other add up while the daemon writes
    /// (queued and synced counted a moment apart counted a batch marked in between twice).
    public func snapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard sqlite3_get_autocommit(conn.db) != 0 else { return try body() }
        try conn.exec("BEGIN DEFERRED")
        defer { try? conn.exec("COMMIT") }
        return try body()
    }

    /// Runs `body` in a write transaction unless one is open already.
    package func inTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard sqlite3_get_autocommit(conn.db) != 0 else { return try body() }
        do {
            return try transaction { () throws -> T in try body() }
        } catch let e as StoreError { throw e } catch {
            throw StoreError(path: path, code: -1, message: "\(error)")
        }
    }

    /// Stores samples; duplicates (same id) are ignored, revisable samples with a new value
    /// replace the stored one and are queued again. Call inside `transaction` for speed.
    public func insert(_ samples: [Sample], now: Timestamp) throws(StoreError) -> InsertResult {
        // Row ids are assigned from `nextRowID` below: only safe inside one write transaction.
        try inTransaction { () throws(StoreError) -> InsertResult in try insertInTransaction(samples, now: now) }
    }

    private func insertInTransaction(_ samples: [Sample], now: Timestamp) throws(StoreError) -> InsertResult {
        guard !samples.isEmpty else { return InsertResult() }
        // The batch's types (a batch holds few) and each sample's slot among them; counts are
        // kept per slot and named once at the end. Fields are read in place, not copied out.
        var names: [String] = [], ids: [Int64] = []
        var slots: [Int] = []
        slots.reserveCapacity(samples.count)
        for i in samples.indices {
            if let last = names.last, last == samples[i].type { slots.append(names.count - 1); continue }
            if let slot = names.firstIndex(of: samples[i].type) { slots.append(slot); continue }
            names.append(samples[i].type)
            ids.append(try typeID(samples[i].type, create: true)!)
            slots.append(names.count - 1)
        }
        var new = [Int](repeating: 0, count: names.count), revised = new, duplicates = new, inserted = new
        // The row ids each type's new and revised rows took: consecutive, the batch being in type order.
        var firstRow = [Int64](repeating: 0, count: names.count), lastRow = firstRow
        // Rows go in by (type, start): exports group records by type in time order, so the
        // table and both indexes fill front to back; the row ids (the send order) follow.
        let order = samples.indices.sorted {
            let a = ids[slots[$0]], b = ids[slots[$1]]
            return a != b ? a < b : samples[$0].start.millis < samples[$1].start.millis
        }
        var next = try nextRowID()
        let s = insertStmt, exists = existsStmt
        let created = now.millis
        s.bind(14, storingFullExport ? 1 : 0)
        // New rows per (source row, type slot), for freshness and the late count: consecutive
        // rows nearly always share both, so the dictionary is met only when they change.
        var arrivalSlots: [ArrivalTracker.RowKey: Int] = [:]
        var arrivalNewest: [Int64] = [], arrivalBefore: [Int64] = [], arrivalKeys: [ArrivalTracker.RowKey] = []
        var lastArrival = -1, lastArrivalKey = ArrivalTracker.RowKey(source: -1, type: -1)
        var late = 0
        // After a mostly-duplicate batch (a cumulative export again), the ids already stored in
        // each type's time window are read in one index range instead of one lookup a sample.
        let stored = probeFirst ? try storedIDs(samples, slots: slots, typeIDs: ids) : []
        // Samples delivered and pruned since are recorded by id alone; look there only when
        // something was ever pruned.
        let checkDelivered = try anyDelivered()
        // Consecutive samples often carry the same metadata (a heart rate's motion context)
        // and unit: each is encoded and bound only when it changes (`runKeepingBindings`
        // keeps the statement's other bindings from row to row).
        var lastMetadata: [String: String] = [:], lastMetadataJSON: String?
        var boundUnit: String?, metadataBound = false
        // The days each type's rows touch, gathered per slot (no hashing of the type's name per
        // row) and handed to the rollup tracker once, at the end of the batch.
        let sleepSlot = names.map { DayMerge.sleepTypes.contains($0) }
        var touched = [Set<Int64>](repeating: [], count: names.count)
        var lastDay = [Int64](repeating: .min, count: names.count)
        func touch(_ slot: Int, _ start: Int64, _ end: Int64) {
            let days = rollups.policy.days(sleep: sleepSlot[slot], start: start, end: end)
            if days.count == 1 {
                if days.lowerBound == lastDay[slot] { return }
                lastDay[slot] = days.lowerBound
            }
            touched[slot].formUnion(days)
        }
        defer {
            for slot in names.indices where !touched[slot].isEmpty {
                rollups.dirty[names[slot], default: []].formUnion(touched[slot])
            }
        }
        for index in order {
            let slot = slots[index]
            let type = ids[slot]
            let start = samples[index].start, end = samples[index].end
            let revisable = samples[index].revisable
            let id = samples[index].id
            if probeFirst && !revisable {
                let known: Bool
                if let window = stored[slot] {
                    known = window.contains(id)
                } else {
                    exists.bind(1, type); exists.bind(2, start.millis); exists.bind(3, id: id)
                    known = try exists.step()
                    sqlite3_reset(exists.stmt)
                }
                if known {
                    duplicates[slot] += 1
                    continue
                }
            }
            // Delivered once and pruned since: not stored or sent again, unless a revisable
            // sample comes back with another value (a revision, queued like one).
            var revision = false
            if checkDelivered, let delivered = try deliveredValue(id) {
                guard revisable, let value = delivered, value != samples[index].value else {
                    duplicates[slot] += 1
                    continue
                }
                revision = true
            }
            if samples[index].metadata != lastMetadata {
                lastMetadata = samples[index].metadata
                lastMetadataJSON = Self.encodeMetadata(lastMetadata)
                metadataBound = false
            }
            let source = try sourceID(samples[index].source)
            s.bind(1, next)
            s.bind(2, type)
            s.bind(3, start.millis)
            s.bind(4, id: id)
            s.bind(5, samples[index].value)
            if boundUnit != samples[index].unit {
                boundUnit = samples[index].unit
                s.bind(6, boundUnit)
            }
            s.bind(7, Int64(start.utcOffsetSeconds))
            s.bind(8, end.millis)
            s.bind(9, Int64(end.utcOffsetSeconds))
            s.bind(10, source)
            if !metadataBound {
                s.bind(11, lastMetadataJSON)
                metadataBound = true
            }
            s.bind(12, revisable ? 1 : 0)
            s.bind(13, created)
            try s.runKeepingBindings()
            if conn.changes == 1 {
                if firstRow[slot] == 0 { firstRow[slot] = next }
                lastRow[slot] = next
                next += 1
                inserted[slot] += 1
                let key = ArrivalTracker.RowKey(source: source, type: type)
                if key != lastArrivalKey {
                    lastArrivalKey = key
                    if let a = arrivalSlots[key] { lastArrival = a } else {
                        lastArrival = arrivalKeys.count
                        arrivalSlots[key] = lastArrival
                        arrivalKeys.append(key)
                        arrivalNewest.append(.min)
                        arrivalBefore.append(try newestBefore(source: source, type: names[slot]))
                    }
                }
                if start.millis > arrivalNewest[lastArrival] { arrivalNewest[lastArrival] = start.millis }
                if start.millis < arrivalBefore[lastArrival] { late += 1 }
                if revision { revised[slot] += 1 } else { new[slot] += 1 }
                touch(slot, start.millis, end.millis)
                continue
            }
            if revisable {
                // A new value for a stored interval: it takes a fresh row id, past the type's mark.
                let r = reviseStmt
                r.bind(1, type); r.bind(2, start.millis); r.bind(3, id: id)
                r.bind(4, samples[index].value); r.bind(5, next); r.bind(6, lastMetadataJSON); r.bind(7, source)
                try r.run()
                if conn.changes == 1 {
                    if firstRow[slot] == 0 { firstRow[slot] = next }
                    lastRow[slot] = next
                    next += 1
                    revised[slot] += 1
                    touch(slot, start.millis, end.millis)
                    continue
                }
            }
            duplicates[slot] += 1
        }
        // New rows are queued (past every mark): counted here, once per type (schema step 7).
        for slot in names.indices where inserted[slot] > 0 { try countQueued(inserted[slot], typeID: ids[slot]) }
        // And put in line: a run per type (schema step 11).
        for slot in names.indices where firstRow[slot] != 0 { try queueRun(typeID: ids[slot], first: firstRow[slot], last: lastRow[slot]) }
        for (i, key) in arrivalKeys.enumerated() {
            arrivals.note(source: try source(id: key.source).name, type: try typeName(key.type), newest: arrivalNewest[i], at: created)
        }
        var result = InsertResult()
        result.late = late
        for (slot, name) in names.enumerated() {
            result.new += new[slot]
            result.revised += revised[slot]
            result.duplicates += duplicates[slot]
            if new[slot] + revised[slot] > 0 { result.gained[name, default: 0] += new[slot] + revised[slot] }
            if duplicates[slot] > 0 { result.duplicatesByType[name, default: 0] += duplicates[slot] }
        }
        probeFirst = result.duplicates * 2 > samples.count
        return result
    }

    /// Whether any pruned sample was recorded as delivered.
    private func anyDelivered() throws(StoreError) -> Bool {
        let s = anyDeliveredStmt
        defer { s.reset() }
        return try s.step() && s.int(0) != 0
    }

    /// The delivered record of a pruned sample: nil when `id` was never pruned; `.some(nil)` for
    /// a sample that is not revisable, `.some(value)` for a revisable one.
    private func deliveredValue(_ id: SampleID) throws(StoreError) -> Double?? {
        let s = deliveredStmt
        s.bind(1, id: id)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return .some(s.isNull(0) ? nil : s.double(0))
    }

    /// For each type slot of a batch, the ids stored in the window between its earliest and
    /// latest start; nil for a slot whose window holds too many rows to be worth reading (its
    /// samples are then looked up one by one).
    private func storedIDs(_ samples: [Sample], slots: [Int], typeIDs: [Int64]) throws(StoreError) -> [Set<SampleID>?] {
        var low = [Int64](repeating: .max, count: typeIDs.count), high = [Int64](repeating: .min, count: typeIDs.count)
        var count = [Int](repeating: 0, count: typeIDs.count)
        for i in samples.indices where !samples[i].revisable {
            let slot = slots[i], t = samples[i].start.millis
            low[slot] = min(low[slot], t)
            high[slot] = max(high[slot], t)
            count[slot] += 1
        }
        let q = try conn.prepare("SELECT id FROM samples WHERE type = ? AND start_ms BETWEEN ? AND ? LIMIT ?")
        var out: [Set<SampleID>?] = []
        for slot in typeIDs.indices {
            guard count[slot] > 0 else { out.append(nil); continue }
            let limit = 4 * count[slot] + 64
            q.bind(1, typeIDs[slot]); q.bind(2, low[slot]); q.bind(3, high[slot]); q.bind(4, limit)
            var ids = Set<SampleID>(minimumCapacity: count[slot])
            var rows = 0
            while try q.step() {
                rows += 1
                if let id = q.id(0) { ids.insert(id) }
            }
            q.reset()
            out.append(rows < limit ? ids : nil)
        }
        return out
    }

    static func encodeMetadata(_ m: [String: String]) -> String? {
        guard !m.isEmpty else { return nil }
        var w = JSONWriter(capacity: 64)
        w.sortedObject(m)
        return w.text
    }

    static func decodeMetadata(_ text: String?) -> [String: String] {
        guard let text, text != "{}", let v = try? JSONParser.parse(text), let members = v.objectValue else { return [:] }
        var out: [String: String] = [:]
        for (k, mv) in members { out[k] = mv.stringValue ?? "" }
        return out
    }

    static let sampleColumns = """
        rowid, type, value, unit, start_ms, start_off, end_ms, end_off, source_id, metadata, revisable, created_ms, id
        """

    /// A row of `sampleColumns`.
    func readSample(_ s: Statement, type knownType: String? = nil) throws(StoreError) -> StoredSample {
        let type: String
        if let knownType { type = knownType } else { type = try typeName(s.int(1)) }
        // The id it was stored under: no SHA-256 per sample read back.
        let sample = Sample(storedID: s.id(12) ?? SampleID(bytes: [UInt8](repeating: 0, count: 16)), type: type, value: s.double(2), unit: s.string(3, cache: &unitCache) ?? "",
                            start: Timestamp(millis: s.int(4), utcOffsetSeconds: Int32(s.int(5))),
                            end: Timestamp(millis: s.int(6), utcOffsetSeconds: Int32(s.int(7))),
                            source: try source(id: s.int(8)),
                            metadata: Self.decodeMetadata(s.string(9, cache: &metadataCache)), revisable: s.int(10) != 0)
        return StoredSample(sample: sample, createdAt: Timestamp(millis: s.int(11)), rowID: s.int(0))
    }

    /// Up to `limit` queued samples of `type` (past its mark, not parked), in send order, with
    /// row id greater than `afterRowID`.
    func queued(type: String, limit: Int, afterRowID: Int64 = 0) throws(StoreError) -> [StoredSample] {
        guard let id = try typeID(type, create: false) else { return [] }
        let s = queuedStmt
        s.bind(1, id)
        s.bind(2, afterRowID)
        s.bind(3, limit)
        defer { s.reset() }
        var out: [StoredSample] = []
        out.reserveCapacity(min(limit, 4096))
        while try s.step() { out.append(try readSample(s, type: type)) }
        return out
    }

    /// What the sync path reads of a row: rowid, id, value, unit, start, end, source, metadata,
    /// created, and a journal record's version and tombstone flag (schema step 4).
    static let batchColumns = "rowid, id, value, unit, start_ms, start_off, end_ms, end_off, source_id, metadata, created_ms, version, deleted"

    /// The same samples as `queued`, encoded for the gateway straight from the rows: no
    /// `Sample` is built, and metadata goes out as the JSON text it is stored as. The queue is
    /// read as row-id ranges of the table, run by run (schema step 11).
    /// `fhirUser` (the gateway's `fhir` formats): each row is encoded as a FHIR resource for that user.
    public func queuedBatch(type: String, limit: Int, afterRowID: Int64 = 0,
                            fhirUser: String? = nil) throws(StoreError) -> EncodedBatch {
        let batch = EncodedBatch(capacity: min(limit, 4096) * 480 + 256)
        batch.fhirUser = fhirUser
        guard let id = try typeID(type, create: false) else { return batch }
        batch.setType(type)
        let s = queuedBatchStmt
        s.bind(1, id)
        s.bind(2, afterRowID)
        s.bind(3, limit)
        defer { s.reset() }
        while try s.step() {
            let source = s.int(8)
            if batch.sourceKey != source { batch.setSource(try self.source(id: source), key: source) }
            batch.append(rowID: s.int(0), id: s.id(1) ?? SampleID(bytes: [UInt8](repeating: 0, count: 16)), value: s.double(2), unit: s.bytes(3),
                         start: Timestamp(millis: s.int(4), utcOffsetSeconds: Int32(truncatingIfNeeded: s.int(5))),
                         end: Timestamp(millis: s.int(6), utcOffsetSeconds: Int32(truncatingIfNeeded: s.int(7))),
                         metadata: s.bytes(9), createdAt: s.int(10), version: Int(s.int(11)), deleted: s.int(12) != 0)
        }
        return batch
    }

    /// Records what became of a batch of `type` by row ids (`rowIDs` in send order). The type's
    /// mark moves past the batch; samples to retry that other delivered samples follow move to
    /// fresh row ids, so they stay in line without the delivered ones being sent again.
    public func recordDelivery(type: String, rowIDs: [Int64], rejected: [(Int64, String)] = [], retry: [Int64] = [],
                               at now: Timestamp) throws(StoreError) {
        guard let last = rowIDs.last, let type = try typeID(type, create: false) else { return }
        try inTransaction { () throws(StoreError) in
            if !rejected.isEmpty { try parkInTransaction(rejected, at: now) }
            var mark = last
            if let firstRetry = retry.min() {
                let retrying = Set(retry), parked = Set(rejected.map(\.0))
                let deliveredAfter = rowIDs.contains { $0 > firstRetry && !retrying.contains($0) && !parked.contains($0) }
                if deliveredAfter {
                    try moveToEndOfQueue(retry.sorted())
                } else {
                    mark = firstRetry - 1
                }
            }
            markStmt.bind(1, mark)
            markStmt.bind(2, type)
            try markStmt.run()
            try dropDeliveredRuns(typeID: type)
        }
    }

    /// Gives rows fresh row ids past every mark, in the order given, and puts them back in
    /// line (not parked). Call inside a write transaction.
    private func moveToEndOfQueue(_ rowIDs: [Int64]) throws(StoreError) {
        guard !rowIDs.isEmpty else { return }
        let first = try nextRowID()
        var next = first
        let move = try conn.prepare("UPDATE samples SET rowid = ?, state = 0, dead_reason = NULL, parked_ms = NULL WHERE rowid = ?")
        for row in rowIDs {
            move.bind(1, next); move.bind(2, row)
            try move.run()
            next += 1
        }
        try queueFreshRows(from: first, through: next - 1)
    }

    /// Parks samples the gateway rejected as bad (dead letters), with the reason. Call inside
    /// a write transaction (`recordDelivery` is the one caller).
    private func parkInTransaction(_ rejected: [(rowID: Int64, reason: String)], at now: Timestamp) throws(StoreError) {
        let s = try conn.prepare("UPDATE samples SET state = 2, dead_reason = ?, parked_ms = ? WHERE rowid = ?")
        for (rowID, reason) in rejected {
            s.bind(1, reason)
            s.bind(2, now.millis)
            s.bind(3, rowID)
            try s.run()
        }
    }

    /// Puts parked samples back in the queue (at its end); returns how many, by type.
    public func requeueDeadLetters(type: String? = nil) throws(StoreError) -> [String: Int] {
        var typeID: Int64?
        if let type {
            guard let id = try self.typeID(type, create: false) else { return [:] }
            typeID = id
        }
        return try inTransaction { () throws(StoreError) -> [String: Int] in
            // Through the parked rows' partial index (schema step 11), not a scan of every sample.
            let find = try conn.prepare("SELECT rowid, type FROM samples INDEXED BY samples_parked WHERE state = 2 AND (?1 IS NULL OR type = ?1) ORDER BY rowid")
            find.bind(1, typeID)
            var rows: [Int64] = []
            var counts: [String: Int] = [:]
            while try find.step() {
                rows.append(find.int(0))
                counts[try typeName(find.int(1)), default: 0] += 1
            }
            try moveToEndOfQueue(rows)
            return counts
        }
    }

    /// Parked samples: (sample, reason), newest first.
    public func deadLetters(limit: Int = 100) throws(StoreError) -> [(StoredSample, String)] {
        let s = try conn.prepare("SELECT \(Self.sampleColumns), dead_reason FROM samples INDEXED BY samples_parked WHERE state = 2 ORDER BY parked_ms DESC, rowid DESC LIMIT ?")
        s.bind(1, limit)
        var out: [(StoredSample, String)] = []
        while try s.step() { out.append((try readSample(s), s.string(13) ?? "")) }
        return out
    }

    /// Counts by type name, from one count per type (each an index range).
    /// Sample counts by type from `type_counts` (kept as rows change; schema step 7): one of
    /// `queued`, `synced`, `parked`. Types with none are left out.
    private func countsByType(_ column: String) throws(StoreError) -> [String: Int] {
        let s = try cached("SELECT t.name, c.\(column) FROM type_counts AS c JOIN types AS t ON t.id = c.type WHERE c.\(column) > 0")
        defer { s.reset() }
        var out: [String: Int] = [:]
        while try s.step() { out[s.string(0) ?? ""] = Int(s.int(1)) }
        return out
    }

    /// Counts `n` rows inserted into the queue of the type with id `typeID` (every insert into
    /// `samples` calls it: no trigger counts inserts, see `Schema.typeCounts`).
    package func countQueued(_ n: Int, typeID: Int64) throws(StoreError) {
        let s = try cached("UPDATE type_counts SET queued = queued + ?1 WHERE type = ?2")
        s.bind(1, n); s.bind(2, typeID)
        try s.run()
    }

    /// The same counts by reading every sample (what `type_counts` must always equal; tests).
    func countedBySampleScan() throws(StoreError) -> (queued: [String: Int], synced: [String: Int], parked: [String: Int]) {
        func count(_ condition: String) throws(StoreError) -> [String: Int] {
            let s = try conn.prepare("SELECT name, (SELECT count(*) FROM samples WHERE samples.type = types.id AND \(condition)) FROM types")
            var out: [String: Int] = [:]
            while try s.step() {
                if s.int(1) > 0 { out[s.string(0) ?? ""] = Int(s.int(1)) }
            }
            return out
        }
        return (try count("state = 0 AND rowid > types.synced_to"), try count("state = 0 AND rowid <= types.synced_to"), try count("state = 2"))
    }

    /// What is wrong with the kept counts (tests): `type_counts` against `countedBySampleScan`,
    /// queued rows no run covers, rows of another type inside a run. Empty when all is right.
    func countProblems() throws(StoreError) -> [String] {
        let scan = try countedBySampleScan()
        var problems: [String] = []
        for (name, kept, scanned) in [("queued", try queuedCounts(), scan.queued), ("synced", try syncedCounts(), scan.synced),
                                      ("parked", try deadLetterCounts(), scan.parked)] where kept != scanned {
            problems.append("\(name): kept \(kept), counted \(scanned)")
        }
        if case let n = try uncoveredQueuedRows(), n > 0 { problems.append("\(n) queued rows in no run") }
        if case let n = try foreignRowsInRuns(), n > 0 { problems.append("\(n) rows of another type in a run") }
        return problems
    }

    /// Queued sample counts by type.
    public func queuedCounts() throws(StoreError) -> [String: Int] { try countsByType("queued") }
    /// Queued sample counts by type, each up to `limit + 1` (a count above `limit` means "more
    /// than `limit`"; the counts are kept exact now, the cap keeps callers' wording).
    public func queuedCounts(upTo limit: Int) throws(StoreError) -> [String: Int] {
        try queuedCounts().mapValues { min($0, limit + 1) }
    }

    /// Synced sample counts by type.
    public func syncedCounts() throws(StoreError) -> [String: Int] { try countsByType("synced") }
    /// Parked sample counts by type.
    public func deadLetterCounts() throws(StoreError) -> [String: Int] { try countsByType("parked") }

    /// The types that have queued samples.
    public func typesWithQueuedSamples() throws(StoreError) -> [String] { try queuedCounts().keys.sorted() }

    /// Samples that overlap `[fromMillis, toMillis)` and start at most `DayMerge.lookbackMillis`
    /// (48 h) before it (a measured goal's day). The lower bound keeps the read one range of the
    /// `(type, start_ms)` index instead of every sample of the type from the first one on.
    public func samples(type: String, fromMillis: Int64, toMillis: Int64) throws(StoreError) -> [StoredSample] {
        guard let id = try typeID(type, create: false) else { return [] }
        let s = try conn.prepare(Self.overlappingSamplesQuery)
        s.bind(1, id)
        s.bind(2, toMillis)
        s.bind(3, fromMillis)
        s.bind(4, fromMillis > Int64.min + DayMerge.lookbackMillis ? fromMillis - DayMerge.lookbackMillis : Int64.min)
        var out: [StoredSample] = []
        while try s.step() { out.append(try readSample(s, type: type)) }
        return out
    }

    static let overlappingSamplesQuery = """
        SELECT \(sampleColumns) FROM samples WHERE type = ?1 AND start_ms >= ?4 AND start_ms < ?2 AND end_ms >= ?3 AND deleted = 0 ORDER BY start_ms
        """

    /// The condition on `samples` that selects synced rows.
    private static let synced = "state = 0 AND rowid <= (SELECT synced_to FROM types WHERE types.id = samples.type)"

    /// Removes synced samples whose end is before `olderThanMillis`; returns how many. Their ids
    /// stay in `delivered`, so they are never stored or sent again.
    public func pruneSynced(olderThanMillis: Int64) throws(StoreError) -> Int {
        try prune("SELECT rowid FROM samples WHERE end_ms < ?1 AND \(Self.synced)", olderThanMillis)
    }

    /// Removes the oldest synced samples (by end date) until at most `keep` synced remain;
    /// returns how many. Their ids stay in `delivered`.
    public func pruneOldestSynced(keeping keep: Int) throws(StoreError) -> Int {
        try prune("""
            SELECT rowid FROM samples WHERE \(Self.synced) ORDER BY end_ms, rowid
            LIMIT max(0, (SELECT count(*) FROM samples WHERE \(Self.synced)) - ?1)
            """, Int64(keep))
    }

    /// Records the rows `selection` picks (bound to `parameter`) as delivered, then deletes them,
    /// in one transaction: forgetting a sample's payload never forgets that it was delivered.
    private func prune(_ selection: String, _ parameter: Int64) throws(StoreError) -> Int {
        try inTransaction { () throws(StoreError) -> Int in
            try conn.exec("CREATE TEMP TABLE IF NOT EXISTS pruning (row INTEGER PRIMARY KEY); DELETE FROM temp.pruning")
            let pick = try conn.prepare("INSERT INTO temp.pruning \(selection)")
            pick.bind(1, parameter)
            try pick.run()
            // The days of the rows going: their rollups are recomputed before the commit.
            let days = try conn.prepare("SELECT t.name, s.start_ms, s.end_ms FROM samples AS s JOIN types AS t ON t.id = s.type WHERE s.rowid IN (SELECT row FROM temp.pruning)")
            while try days.step() { rollups.mark(type: days.string(0) ?? "", start: days.int(1), end: days.int(2)) }
            try conn.exec("""
                INSERT OR REPLACE INTO delivered(id, value)
                    SELECT id, CASE WHEN revisable THEN value END FROM samples WHERE rowid IN (SELECT row FROM temp.pruning);
                DELETE FROM samples WHERE rowid IN (SELECT row FROM temp.pruning);
                """)
            let removed = conn.changes
            try conn.exec("DELETE FROM temp.pruning")
            return removed
        }
    }

    /// How many pruned samples are remembered as delivered.
    func deliveredCount() throws(StoreError) -> Int {
        let s = try conn.prepare("SELECT count(*) FROM delivered")
        _ = try s.step()
        return Int(s.int(0))
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
    func sampleCount() throws(StoreError) -> Int {
        let s = try conn.prepare("SELECT count(*) FROM samples")
        _ = try s.step()
        return Int(s.int(0))
    }
}
