import HealthSpoolCore

/// Deletions inferred from full Apple Health exports (issue 43; schema step 10): the samples an
/// earlier full export held that a newer one no longer holds. They are marked deleted through the
/// tombstone mechanism (`setDeleted`: same id, higher version, `deleted`), or wait over the bound
/// for the person; each is listed in `inferred_deletions`, from where it can be restored.
extension SampleStore {
    /// A deletion inferred from a full export.
    public struct InferredDeletion: Sendable, Equatable {
        public enum State: Int, Sendable {
            /// Over the import's bound: waits for `healthspool deletions apply`.
            case waiting = 0
            /// Marked deleted (a tombstone was queued).
            case deleted = 1
            /// Put back by the person.
            case restored = 2
        }
        public var key: SampleKey
        /// The ExportDate of the export that no longer held it.
        public var exportMillis: Int64
        /// When that export was imported.
        public var atMillis: Int64
        public var state: State
    }

    /// What a full export's import found: samples stored from a full export, starting before
    /// `since` (the earlier export's date), of the given types, that `seen` does not hold and
    /// that are not deleted already; and how many samples of those types start before `since`.
    public func deletionCandidates(types: [String], since: Int64, seen: SeenSampleIDs) throws(StoreError) -> (candidates: [SampleKey], stored: Int) {
        // The unique (type, start_ms, id) index alone answers the scan; a row is read only for
        // an id the export did not hold (a handful).
        let scan = try conn.prepare("SELECT start_ms, id FROM samples WHERE type = ?1 AND start_ms < ?2")
        // A sample the person put back (`restoreDeletions`) is never inferred deleted again.
        let check = try conn.prepare("""
            SELECT 1 FROM samples WHERE type = ?1 AND start_ms = ?2 AND id = ?3 AND full_export = 1 AND deleted = 0
            AND NOT EXISTS (SELECT 1 FROM inferred_deletions AS d WHERE d.id = ?3 AND d.state = 2)
            """)
        var candidates: [SampleKey] = [], stored = 0
        // The walk's ids are asked about in batches (`SeenSampleIDs.positionsNotHeld`: in the
        // order of `seen`'s memory, not the index's).
        let batch = 1 << 14
        var starts: [Int64] = [], ids: [SampleID] = []
        starts.reserveCapacity(batch); ids.reserveCapacity(batch)
        func settle(_ type: String, _ t: Int64) throws(StoreError) {
            for i in seen.positionsNotHeld(in: ids) {
                check.bind(1, t); check.bind(2, starts[i]); check.bind(3, id: ids[i])
                if try check.step() { candidates.append(SampleKey(type: type, startMillis: starts[i], id: ids[i])) }
                check.reset()
            }
            starts.removeAll(keepingCapacity: true); ids.removeAll(keepingCapacity: true)
        }
        for type in types {
            guard let t = try typeID(type, create: false) else { continue }
            scan.bind(1, t); scan.bind(2, since)
            while try scan.step() {
                stored += 1
                guard let id = scan.id(1) else { continue }
                ids.append(id); starts.append(scan.int(0))
                if ids.count == batch { try settle(type, t) }
            }
            scan.reset()
            try settle(type, t)
        }
        return (candidates, stored)
    }

    /// How many samples the store holds (a first guess at a full export's size when the
    /// earlier one's count is not known: `SeenSampleIDs(expected:)`).
    public func storedSampleCount() throws(StoreError) -> Int { try sampleCount() }

    /// The types with stored samples.
    public func storedTypes() throws(StoreError) -> [String] {
        let q = try conn.prepare("SELECT name FROM types ORDER BY name")
        var out: [String] = []
        while try q.step() { if let n = q.string(0) { out.append(n) } }
        return out
    }

    /// Records what an export showed deleted and, unless `waiting`, marks the samples deleted
    /// (tombstones queued), in one transaction. Returns the types put in line.
    @discardableResult
    public func recordInferredDeletions(_ keys: [SampleKey], exportMillis: Int64, at now: Timestamp, waiting: Bool) throws(StoreError) -> [String] {
        guard !keys.isEmpty else { return [] }
        return try inTransaction { () throws(StoreError) -> [String] in
            let s = try conn.prepare("""
                INSERT INTO inferred_deletions(id, type, start_ms, export_ms, at_ms, state) VALUES (?1,?2,?3,?4,?5,?6)
                ON CONFLICT(id) DO UPDATE SET export_ms = excluded.export_ms, at_ms = excluded.at_ms, state = excluded.state
                """)
            for k in keys {
                s.bind(1, id: k.id); s.bind(2, k.type); s.bind(3, k.startMillis); s.bind(4, exportMillis); s.bind(5, now.millis)
                s.bind(6, (waiting ? InferredDeletion.State.waiting : .deleted).rawValue)
                try s.run()
            }
            return waiting ? [] : try setDeleted(keys, deleted: true)
        }
    }

    /// The inferred deletions, newest import first, at most `limit`.
    public func inferredDeletions(limit: Int = 1000) throws(StoreError) -> [InferredDeletion] {
        let q = try conn.prepare("SELECT type, start_ms, id, export_ms, at_ms, state FROM inferred_deletions ORDER BY at_ms DESC, type, start_ms LIMIT ?1")
        q.bind(1, limit)
        var out: [InferredDeletion] = []
        while try q.step() {
            guard let id = q.id(2) else { continue }
            out.append(InferredDeletion(key: SampleKey(type: q.string(0) ?? "", startMillis: q.int(1), id: id), exportMillis: q.int(3),
                                        atMillis: q.int(4), state: InferredDeletion.State(rawValue: Int(q.int(5))) ?? .waiting))
        }
        return out
    }

    /// Marks every waiting deletion deleted. Returns how many and the types put in line.
    public func applyWaitingDeletions() throws(StoreError) -> (count: Int, types: [String]) {
        try inTransaction { () throws(StoreError) -> (count: Int, types: [String]) in
            let keys = try inferredDeletions(limit: .max).filter { $0.state == .waiting }.map(\.key)
            try conn.exec("UPDATE inferred_deletions SET state = 1 WHERE state = 0")
            return (keys.count, try setDeleted(keys, deleted: true))
        }
    }

    /// Puts back the inferred deletions with the given ids, or, with nil, those the last import
    /// that marked any marked (same id, higher version; the sample is sent again). Waiting
    /// ones are dropped instead. Returns how many were restored and the types put in line.
    public func restoreDeletions(ids: [SampleID]?) throws(StoreError) -> (count: Int, types: [String]) {
        try inTransaction { () throws(StoreError) -> (count: Int, types: [String]) in
            let all = try inferredDeletions(limit: .max)
            let chosen: [InferredDeletion]
            if let ids {
                let wanted = Set(ids)
                chosen = all.filter { wanted.contains($0.key.id) && $0.state != .restored }
            } else {
                let last = all.filter { $0.state == .deleted }.map(\.atMillis).max()
                chosen = all.filter { $0.state != .restored && $0.atMillis == last }
            }
            let mark = try conn.prepare("UPDATE inferred_deletions SET state = 2 WHERE id = ?1")
            for d in chosen { mark.bind(1, id: d.key.id); try mark.run() }
            let types = try setDeleted(chosen.filter { $0.state == .deleted }.map(\.key), deleted: false)
            return (chosen.count, types)
        }
    }
}
