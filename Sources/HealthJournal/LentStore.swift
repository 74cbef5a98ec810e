import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// What a borrower makes of the connection a `StoreLease` lends, for one configuration: the
/// journal's use cases the web's pages ask for (the pipeline's, the home and sending pages',
/// are `LentStore+Pipeline` in the daemon). The web module holds this value,
/// never the connection (`HealthSpoolWeb` does not depend on `HealthSpoolStore`); like the
/// lease, it is valid only inside the work the pool runs, on its thread.
public struct LentStore {
    package let store: SampleStore
    package let configuration: Configuration

    package init(store: SampleStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
    }

    /// The providers' records, as lists (`HealthRecords`).
    public func healthRecords() throws -> HealthRecords { try HealthRecords.read(store) }

    /// The day view's and calendar's use case (`HealthDays`), in `zone`.
    public func days(zone: ZoneRules) -> HealthDays { HealthDays(store: store, zone: zone, configuration: configuration) }

    /// The symptom journal's use cases on this connection; what they put in line is announced to
    /// the daemon through its control socket.
    public func journal() -> JournalUseCases {
        JournalUseCases.on(store, settings: configuration.settings, controlSocket: configuration.controlSocket)
    }

    /// The health journal (medications, doses, reminders, goals, notes, manual measurements) on
    /// this connection, in the machine's zone (`TZ`, else `/etc/localtime`).
    public func records() throws -> HealthJournal {
        HealthJournal(store: store, zone: try ZoneInfo.current(environment: configuration.environment), configuration: configuration)
    }

    /// A journal command (`JournalRunner.run(configuration:now:_:)`) on this connection: its
    /// refusals in one line, what it puts in line announced to the daemon.
    public func run<T>(now: Timestamp = RealTimeClock.now(), _ body: (JournalRunner) throws -> T) throws -> T {
        try JournalRunner.run(on: store, configuration: configuration, now: now, body)
    }

    /// Carries out `undo` (`JournalUndo.apply(configuration:now:)`) on this connection.
    public func apply(_ undo: JournalUndo, now: Timestamp = RealTimeClock.now()) throws -> String {
        try undo.apply(on: store, configuration: configuration, now: now)
    }
}

extension StoreLease {
    /// `store(_:)` with what the borrower makes of it (`LentStore`).
    public func uses(_ configuration: Configuration) throws -> LentStore {
        LentStore(store: try store(configuration), configuration: configuration)
    }
}
