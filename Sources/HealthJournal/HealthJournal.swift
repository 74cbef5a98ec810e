import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// The health journal's use cases (medications, reminders, goals, notes, manual measurements),
/// called by the CLI and, later, the web interface and the daemon's reminder scheduler. Each
/// works on the store directly, whether or not the daemon runs.
///
/// Not thread-safe (it owns a store connection): make one per request or per thread.
public final class HealthJournal {
    /// The zone local times are read and shown in.
    public let zone: ZoneRules
    /// The settings it follows: the glucose unit, the source priority, the report's name,
    /// whether positions are logged.
    public let settings: Settings
    /// How numbers are written (the environment's locale).
    public let style: NumberStyle
    /// Where note audio files are kept: `<state dir>/notes/` (0700; files 0600).
    public let notesDirectory: String
    package let store: SampleStore
    let journal: JournalStore
    /// Told the types that gained queued samples after a write (a manual measurement).
    public var onQueued: ([String]) -> Void = { _ in }

    /// The journal on `store`, a connection already open (`JournalRunner`'s, or one borrowed
    /// from a `StorePool`), in `zone`.
    public init(store: SampleStore, zone: ZoneRules, settings: Settings, style: NumberStyle, notesDirectory: String) {
        self.zone = zone
        self.settings = settings
        self.style = style
        self.notesDirectory = notesDirectory
        self.store = store
        journal = JournalStore(store)
    }

    /// The journal on `store` in `zone`, with `configuration`'s settings, number style and
    /// notes directory.
    public convenience init(store: SampleStore, zone: ZoneRules, configuration: Configuration) {
        self.init(store: store, zone: zone, settings: configuration.settings, style: NumberStyle(environment: configuration.environment),
                  notesDirectory: configuration.stateDir + "/notes")
    }

    /// A time the user typed (`--at`), read in the journal's zone.
    public func time(_ text: String, now: Timestamp) throws -> Timestamp {
        guard let t = WallClock.parse(text, now: now, zone: zone) else {
            throw JournalError.invalid(field: "time", value: text,
                                       expected: "HH:MM (today), YYYY-MM-DD HH:MM (local) or 2026-03-29T08:00:00+02:00")
        }
        return t
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

