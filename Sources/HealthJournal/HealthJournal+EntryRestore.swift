import HealthSpoolCore
import HealthSpoolStore

/// Changes to a lifestyle entry: nil leaves a field as it is.
public struct LifestyleChanges: Sendable {
    public var factor: String?
    /// A new amount or level; `.some(nil)` removes the one the entry had.
    public var measure: LifestyleMeasure??
    public var when: PartOfDay?
    public var at: Timestamp?
    /// A new note; empty removes it.
    public var note: String?
    public init() {}
}

extension HealthJournal {
    /// Puts a symptom entry back as `previous` was (the undo of a delete or an edit): the same
    /// id and content, not deleted, under a new version. Its queue row is rewritten and moved
    /// past every sync mark (`JournalStore.queue`), so a gateway that received the
    /// tombstone receives the entry again after it; the days it touches are scored again.
    @discardableResult
    public func restoreSymptom(_ previous: SymptomEntry) throws -> SymptomEntry {
        let now = self.now
        var queued: Set<String> = []
        let entry = try journal.transaction { () throws(StoreError) -> Result<SymptomEntry, JournalError> in
            guard let current = try journal.symptomEntry(id: previous.id) else {
                return .failure(JournalError.cannotPutBack(kind: "symptom", id: "\(previous.id)"))
            }
            var e = previous
            e.deleted = false
            e.version = current.version + 1
            _ = try journal.symptom(named: e.symptom, category: nil, now: now)
            try journal.update(e, now: now)
            queued.formUnion(try send(JournalRecord(e), previousStart: current.at.millis, now: now))
            queued.formUnion(try rescore([current.day, e.day], now: now))
            return .success(e)
        }.get()
        if !queued.isEmpty { onQueued(queued.sorted()) }
        return entry
    }

    // MARK: Lifestyle

    /// The lifestyle entry whose id starts with `idPrefix` (not deleted).
    public func lifestyleEntry(_ idPrefix: String) throws -> LifestyleEntry {
        let hex = idPrefix.filter { $0 != "-" }
        guard hex.count >= 4, hex.allSatisfy(\.isHexDigit) else {
            throw JournalError.notAnID(prefix: idPrefix, list: "lifestyle")
        }
        let found = try journal.lifestyleEntries(idPrefix: hex)
        guard let e = found.first else { throw JournalError.noEntry(kind: "lifestyle", prefix: idPrefix, list: "lifestyle") }
        guard found.count == 1 else { throw JournalError.ambiguousID(prefix: idPrefix) }
        guard !e.deleted else { throw JournalError.deleted(id: "\(e.id)") }
        return e
    }

    /// Edits the lifestyle entry whose id starts with `idPrefix`; the new version is sent under the same id.
    @discardableResult
    public func editLifestyle(_ idPrefix: String, _ changes: LifestyleChanges) throws -> LifestyleEntry {
        let old = try lifestyleEntry(idPrefix)
        var e = old
        if let f = changes.factor { e.factor = try Self.name(f, what: "lifestyle factor") }
        if let m = changes.measure { e.measure = m }
        if let at = changes.at {
            e.at = at; e.timeOfDay = changes.when ?? PartOfDay(of: at); e.partMeant = false
        } else if let w = changes.when, w != old.timeOfDay {
            // Another part of the same day: the time moves with it (issue 40).
            e.at = w.meantTime(on: old.day, now: now, zone: zone); e.timeOfDay = w; e.partMeant = true
        }
        if let n = changes.note { e.note = n.trimmingSpaces.isEmpty ? nil : n }
        guard e != old else { return e }
        e.version = old.version + 1
        return try writeLifestyle(e, previousStart: old.at.millis)
    }

    /// Deletes the lifestyle entry whose id starts with `idPrefix`: kept as a tombstone and sent as one.
    @discardableResult
    public func deleteLifestyle(_ idPrefix: String) throws -> LifestyleEntry {
        var e = try lifestyleEntry(idPrefix)
        e.deleted = true
        e.version += 1
        return try writeLifestyle(e, previousStart: e.at.millis)
    }

    /// Puts a lifestyle entry back as `previous` was (the undo of a delete or an edit), under a
    /// new version and the same id, and sends it again.
    @discardableResult
    public func restoreLifestyle(_ previous: LifestyleEntry) throws -> LifestyleEntry {
        guard let current = try journal.lifestyleEntry(id: previous.id) else {
            throw JournalError.cannotPutBack(kind: "lifestyle", id: "\(previous.id)")
        }
        var e = previous
        e.deleted = false
        e.version = current.version + 1
        return try writeLifestyle(e, previousStart: current.at.millis)
    }

    /// Stores a changed lifestyle entry and puts it in line, in one transaction.
    private func writeLifestyle(_ e: LifestyleEntry, previousStart: Int64) throws -> LifestyleEntry {
        let now = self.now
        var queued: Set<String> = []
        try journal.transaction { () throws(StoreError) in
            try journal.remember([e.factor], in: "lifestyle")
            try journal.update(e, now: now)
            queued.formUnion(try send(JournalRecord(e), previousStart: previousStart, now: now))
        }
        if !queued.isEmpty { onQueued(queued.sorted()) }
        return e
    }
}
