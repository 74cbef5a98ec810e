import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// The person's journal: the one façade over its tables, called by the CLI, the web interface,
/// the importer and the daemon's journal scheduler. Symptoms, lifestyle factors and their daily
/// scores (`HealthJournal+Symptoms`, `+Lifestyle`), medications and doses, reminders, goals,
/// notes and manual measurements. Each use case works on the store directly, whether or not the
/// daemon runs.
///
/// Every write is one transaction on the store (SQLite's locking makes it safe next to a
/// running daemon) that changes the journal's tables and puts the new version of each changed
/// record in line for the gateway (unless its type is disabled). `onQueued` is told the types
/// that gained records.
///
/// Not thread-safe (it owns a store connection): make one per request or per thread.
public final class HealthJournal {
    /// The zone local times are read and shown in.
    public let zone: ZoneRules
    /// The settings it follows: the glucose unit, the source priority, the report's name,
    /// whether positions are logged, which journal types are sent.
    public let settings: Settings
    /// How numbers are written (the environment's locale).
    public let style: NumberStyle
    /// Where note audio files are kept: `<state dir>/notes/` (0700; files 0600).
    public let notesDirectory: String
    package let store: SampleStore
    /// The journal's tables.
    let journal: JournalStore
    /// The time a symptom or lifestyle use case runs at (the medications' and the others' take `now:`).
    let clock: () -> Timestamp
    let newID: () -> SampleID
    /// Told the types that gained queued records after a write.
    public var onQueued: ([String]) -> Void = { _ in }

    /// The journal on `store`, a connection already open (`JournalRunner`'s, or one borrowed
    /// from a `StorePool`), in `zone`; its symptom and lifestyle use cases run at `clock`'s time.
    public init(store: SampleStore, zone: ZoneRules, settings: Settings, style: NumberStyle = NumberStyle(), notesDirectory: String = "",
                clock: @escaping () -> Timestamp = RealTimeClock.now, newID: @escaping () -> SampleID = HealthJournal.randomID) {
        self.zone = zone
        self.settings = settings
        self.style = style
        self.notesDirectory = notesDirectory
        self.store = store
        self.clock = clock
        self.newID = newID
        journal = JournalStore(store)
    }

    /// The journal on `store` in `zone`, with `configuration`'s settings, number style and
    /// notes directory.
    public convenience init(store: SampleStore, zone: ZoneRules, configuration: Configuration,
                            clock: @escaping () -> Timestamp = RealTimeClock.now) {
        self.init(store: store, zone: zone, settings: configuration.settings, style: NumberStyle(environment: configuration.environment),
                  notesDirectory: configuration.stateDir + "/notes", clock: clock)
    }

    /// A random id (UUID version 4) for a new entry.
    public static func randomID() -> SampleID {
        var g = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return SampleID(bytes: bytes)
    }

    /// Now (`clock`), with the zone's offset.
    var now: Timestamp { LocalDay.timestamp(clock().millis, in: zone) }

    /// A time the user typed (`--at`), read in the journal's zone.
    public func time(_ text: String, now: Timestamp) throws -> Timestamp {
        guard let t = WallClock.parse(text, now: now, zone: zone) else {
            throw JournalError.invalid(field: "time", value: text,
                                       expected: "HH:MM (today), YYYY-MM-DD HH:MM (local) or 2026-03-29T08:00:00+02:00")
        }
        return t
    }

    /// A local date and time typed in a form's two fields ("2026-11-26", "09:15") as an instant
    /// in the journal's zone; nil when both are as they were (`was`, the entry's time, read with
    /// its own offset). A field left empty keeps the entry's; the time may be typed as a person
    /// types it ("0900", "9am"; `TimeOfDay(typed:)`).
    public func time(date: String?, time: String?, was: Timestamp) throws -> Timestamp? {
        let old = was.iso8601Local
        let d = (date ?? "").trimmingSpaces, t = (time ?? "").trimmingSpaces
        let day = d.isEmpty ? String(old.prefix(10)) : d
        let clock = t.isEmpty ? String(old.dropFirst(11).prefix(5)) : TimeOfDay(typed: t)?.description
        guard let clock, CivilDate(parsing: day) != nil else { throw JournalError.unreadableDateTime(date: d, time: t) }
        let text = day + "T" + clock
        guard text != String(old.prefix(16)) else { return nil }
        return try self.time(text, now: self.clock())
    }

    /// A date the user typed (`--date`), or today.
    public func day(_ text: String?, now: Timestamp) throws -> CivilDate {
        guard let text else { return WallClock.localDay(of: now, zone: zone) }
        guard let d = CivilDate(parsing: text.trimmingSpaces) else {
            throw JournalError.invalid(field: "date", value: text, expected: "YYYY-MM-DD")
        }
        return d
    }

    /// A timestamp shown in the journal's zone.
    public func local(_ t: Timestamp) -> Timestamp { LocalDay.timestamp(t.millis, in: zone) }
}


extension HealthJournal {
    /// The same journal (store, zone, settings, number style) with its symptom and lifestyle use
    /// cases at `now`, for a view read as of one time; what it queues is announced to no one.
    package func asOf(_ now: Timestamp) -> HealthJournal {
        HealthJournal(store: store, zone: zone, settings: settings, style: style, notesDirectory: notesDirectory, clock: { now })
    }
}

extension HealthJournal {
    /// This journal, with what it puts in line announced to a running daemon through its
    /// control socket at `socket` (the daemon then syncs it as it syncs imports); for another
    /// process (the CLI, the tests' fixtures).
    @discardableResult
    public func announcing(to socket: String) -> HealthJournal {
        onQueued = { ControlClient.observe($0, socket: socket) }
        return self
    }
}
