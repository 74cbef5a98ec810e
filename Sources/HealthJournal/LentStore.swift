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
    /// Where what the journal puts in line is announced: the daemon's sync coordinator when it
    /// runs in this process (the pool's `journalWrites`, `StoreLease.announce`), else its
    /// control socket.
    package let announce: @Sendable ([String]) -> Void
    /// The daemon's status when it runs in this process (else its status file is read).
    package let liveStatus: LiveStatus?

    package init(store: SampleStore, configuration: Configuration, announce: (@Sendable ([String]) -> Void)? = nil, liveStatus: LiveStatus? = nil) {
        self.store = store
        self.configuration = configuration
        self.liveStatus = liveStatus
        if let announce {
            self.announce = announce
        } else {
            let socket = configuration.controlSocket
            self.announce = { ControlClient.observe($0, socket: socket) }
        }
    }

    /// The providers' records, as lists (`HealthRecords`).
    public func healthRecords() throws -> HealthRecords { try HealthRecords.read(store) }

    /// The day view's and calendar's use case (`HealthDays`), in `zone`.
    public func days(zone: ZoneRules) -> HealthDays { HealthDays(store: store, zone: zone, configuration: configuration) }

    /// The journal on this connection, in the machine's zone (`TZ`, else `/etc/localtime`; a zone
    /// that cannot be read is refused); what it puts in line is announced to the daemon
    /// (`announce`). A form post's use case is called on it directly: the error it throws is the
    /// page's to word (`StoreBusy.message`), as `run`'s refusal would be.
    public func records() throws -> HealthJournal {
        let journal = HealthJournal(store: store, zone: try ZoneInfo.current(environment: configuration.environment), configuration: configuration)
        journal.onQueued = announce
        return journal
    }

    /// The journal for the symptom and lifestyle pages, which need no zone read from the tz
    /// database (UTC when the machine's cannot be read); what it puts in line is announced
    /// to the daemon (`announce`).
    public func journal() -> HealthJournal {
        let journal = HealthJournal(store: store, zone: Configuration.readZone(configuration.environment), configuration: configuration)
        journal.onQueued = announce
        return journal
    }

    /// A journal command (`JournalRunner.run(configuration:now:_:)`) on this connection: its
    /// refusals in one line, what it puts in line announced to the daemon.
    public func run<T>(now: Timestamp = RealTimeClock.now(), _ body: (JournalRunner) throws -> T) throws -> T {
        try JournalRunner.run(on: store, configuration: configuration, now: now, announce: announce, body)
    }

    /// Carries out `undo` (`JournalUndo.apply(configuration:now:)`) on this connection.
    public func apply(_ undo: JournalUndo, now: Timestamp = RealTimeClock.now()) throws -> String {
        try undo.apply(on: store, configuration: configuration, now: now, announce: announce)
    }
}

extension StoreLease {
    /// `store(_:)` with what the borrower makes of it (`LentStore`).
    public func uses(_ configuration: Configuration) throws -> LentStore {
        LentStore(store: try store(configuration), configuration: configuration, announce: announce, liveStatus: liveStatus)
    }
}
