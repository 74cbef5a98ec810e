import HealthSpoolCore
import HealthSpoolStore

/// The lifestyle entries (what a person did or had: coffee, a walk, sleep). An entry and the
/// record that puts it in line for the gateway are written in one transaction (`transaction`,
/// `queue`). Reads by day go through the `*_day` index.
extension JournalStore {
    static let lifestyleColumns = "id, factor, at_ms, at_off, time_of_day, amount, unit, level, note, version, deleted, part_meant"

    /// Stores a new lifestyle entry.
    public func insert(_ e: LifestyleEntry, now: Timestamp) throws(StoreError) {
        let s = try conn.prepare("""
            INSERT INTO lifestyle_entries(\(Self.lifestyleColumns), day, created_ms, updated_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        bind(e, to: s)
        s.bind(13, e.day.daysSinceEpoch); s.bind(14, now.millis); s.bind(15, now.millis)
        try s.run()
    }

    /// Replaces a stored lifestyle entry (same id) with `e`.
    public func update(_ e: LifestyleEntry, now: Timestamp) throws(StoreError) {
        let s = try conn.prepare("""
            UPDATE lifestyle_entries SET factor = ?2, at_ms = ?3, at_off = ?4, time_of_day = ?5, amount = ?6, unit = ?7, level = ?8,
                note = ?9, version = ?10, deleted = ?11, part_meant = ?12, day = ?13, updated_ms = ?14 WHERE id = ?1
            """)
        bind(e, to: s)
        s.bind(13, e.day.daysSinceEpoch); s.bind(14, now.millis)
        try s.run()
    }

    private func bind(_ e: LifestyleEntry, to s: Statement) {
        s.bind(1, id: e.id); s.bind(2, e.factor); s.bind(3, e.at.millis); s.bind(4, Int64(e.at.utcOffsetSeconds))
        s.bind(5, e.timeOfDay.rawValue)
        switch e.measure {
        case let .amount(v, unit)?: s.bind(6, v); s.bind(7, unit); s.bind(8, nil as String?)
        case let .level(l)?: s.bind(6, nil as Int64?); s.bind(7, nil as String?); s.bind(8, l.rawValue)
        case nil: s.bind(6, nil as Int64?); s.bind(7, nil as String?); s.bind(8, nil as String?)
        }
        s.bind(9, e.note); s.bind(10, e.version); s.bind(11, e.deleted ? 1 : 0); s.bind(12, e.partMeant ? 1 : 0)
    }

    /// The lifestyle entry stored under `id` (deleted ones included).
    public func lifestyleEntry(id: SampleID) throws(StoreError) -> LifestyleEntry? {
        let q = try conn.prepare("SELECT \(Self.lifestyleColumns) FROM lifestyle_entries WHERE id = ?")
        q.bind(1, id: id)
        return try q.step() ? readLifestyle(q) : nil
    }

    /// The lifestyle entries whose id starts with `prefix`, at most `limit`.
    public func lifestyleEntries(idPrefix prefix: String, limit: Int = 2) throws(StoreError) -> [LifestyleEntry] {
        try entries(of: Self.lifestyle, idPrefix: prefix, limit: limit, readLifestyle)
    }

    /// The lifestyle entries of a local day (not deleted), in time order.
    public func lifestyleEntries(day: CivilDate) throws(StoreError) -> [LifestyleEntry] {
        try entries(of: Self.lifestyle, day: day, readLifestyle)
    }

    /// The lifestyle entries of the local days `from...to` (not deleted), in time order.
    public func lifestyleEntries(from: CivilDate, to: CivilDate) throws(StoreError) -> [LifestyleEntry] {
        try entries(of: Self.lifestyle, from: from, to: to, readLifestyle)
    }

    private func readLifestyle(_ q: Statement) -> LifestyleEntry {
        var measure: LifestyleMeasure?
        if let level = q.string(7).flatMap(LifestyleLevel.init(rawValue:)) {
            measure = .level(level)
        } else if !q.isNull(5) {
            measure = .amount(q.double(5), unit: q.string(6) ?? "")
        }
        return LifestyleEntry(id: q.id(0) ?? SampleID(bytes: [UInt8](repeating: 0, count: 16)), factor: q.string(1) ?? "",
                              at: Timestamp(millis: q.int(2), utcOffsetSeconds: Int32(truncatingIfNeeded: q.int(3))),
                              timeOfDay: PartOfDay(rawValue: q.string(4) ?? ""), measure: measure, note: q.string(8),
                              version: Int(q.int(9)), deleted: q.int(10) != 0, partMeant: q.int(11) != 0)
    }
}
