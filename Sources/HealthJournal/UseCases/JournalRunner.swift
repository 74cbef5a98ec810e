import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// One journal command (the CLI's symptom, lifestyle, journal, med, remind, goal, note,
/// measure, day, calendar, rebuild-rollups and report), run the same way for each: the store opened once, the journal's use cases on it,
/// the time the command runs at; the records it puts in line are announced to a running daemon
/// through its control socket (it then syncs them as it syncs imports); a refusal is one line.
///
/// Not thread-safe (it owns a store connection): one per command.
public final class JournalRunner {
    /// A journal request that cannot be done, in one line that says what the user can do (a
    /// `JournalError` or `ZoneRulesError` as it reads).
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let configuration: Configuration
    /// The time the command runs at.
    public let now: Timestamp
    /// The journal on the command's store: its symptom and lifestyle use cases (which need
    /// no zone read from the tz database: UTC when the machine's cannot be read) at `now`.
    public let entries: HealthJournal
    /// Why the machine's zone could not be read, when it could not.
    private let zoneError: ZoneRulesError?

    convenience init(configuration: Configuration, now: Timestamp, announce: @escaping ([String]) -> Void) throws {
        self.init(store: try SampleStore.connect(to: configuration, busyTimeout: SampleStore.interactiveBusyTimeout),
                  configuration: configuration, now: now, announce: announce)
    }

    /// On `store`, a connection already open (one borrowed from a `StorePool`).
    init(store: SampleStore, configuration: Configuration, now: Timestamp, announce: @escaping ([String]) -> Void) {
        self.configuration = configuration
        self.now = now
        let zone: ZoneRules
        do {
            zone = try ZoneInfo.current(environment: configuration.environment)
            zoneError = nil
        } catch {
            zone = .utc
            zoneError = error as? ZoneRulesError ?? ZoneRulesError("\(error)")
        }
        entries = HealthJournal(store: store, zone: zone, configuration: configuration, clock: { now })
        entries.onQueued = announce
    }

    /// The same journal, for the commands that need the machine's zone (medications, doses,
    /// reminders, goals, notes, manual measurements): a zone that cannot be read refuses only
    /// these.
    public func records() throws -> HealthJournal {
        if let zoneError { throw zoneError }
        return entries
    }

    /// The day views and the month calendar, on the same store and zone as `records()`.
    public func days() throws -> HealthDays { HealthDays(journal: try records()) }

    /// The doctor's summary of a period, on the same store and zone as `records()`.
    public func reports() throws -> VisitReports { VisitReports(journal: try records()) }

    /// Runs `body` on the journal of `configuration`'s store (created when needed) at the
    /// current time; queued records are announced to a running daemon at its control socket.
    /// Journal refusals come out as a `Refusal`, and so does a store that stayed busy past a
    /// person's wait (`StoreBusy.notSaved`); other errors (the store's) as they are.
    public static func run<T>(configuration: Configuration, now: Timestamp = RealTimeClock.now(),
                              _ body: (JournalRunner) throws -> T) throws -> T {
        let socket = configuration.controlSocket
        return try run(configuration: configuration, now: now, announce: { ControlClient.observe($0, socket: socket) }, body)
    }

    /// `run` with another announcement (a test's).
    static func run<T>(configuration: Configuration, now: Timestamp, announce: @escaping ([String]) -> Void,
                       _ body: (JournalRunner) throws -> T) throws -> T {
        try refusing { try body(try JournalRunner(configuration: configuration, now: now, announce: announce)) }
    }

    /// `run(configuration:now:_:)` on `store`, a connection already open (one a `StorePool` lends).
    /// What it puts in line goes to `announce`.
    package static func run<T>(on store: SampleStore, configuration: Configuration, now: Timestamp,
                               announce: @escaping ([String]) -> Void, _ body: (JournalRunner) throws -> T) throws -> T {
        try refusing { try body(JournalRunner(store: store, configuration: configuration, now: now, announce: announce)) }
    }

    /// `body`, its journal refusals (and a store that stayed busy) as a `Refusal`.
    private static func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as JournalError {
            throw Refusal(description: e.description)
        } catch let e as ZoneRulesError {
            throw Refusal(description: e.description)
        } catch let e as StoreError where e.isBusy {
            throw Refusal(description: StoreBusy.notSaved)
        }
    }
}
