import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// What a borrower makes of the connection a `StoreLease` lends, for one configuration: the
/// use cases and the store's reports the web's pages ask for. The web module holds this value,
/// never the connection (`HealthSpoolWeb` does not depend on `HealthSpoolStore`); like the
/// lease, it is valid only inside the work the pool runs, on its thread.
public struct LentStore {
    private let store: SampleStore
    private let configuration: Configuration

    init(store: SampleStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
    }

    /// The home page's use case (`HomeToday`), in `zone`.
    public func home(zone: ZoneRules) -> HomeToday { HomeToday(store: store, zone: zone, configuration: configuration) }

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

    /// The sending page's view (`SendingView`), its queued counts and history read here.
    public func sending(queuedCountLimit: Int) throws -> SendingView {
        try SendingView.make(configuration: configuration, queuedCountLimit: queuedCountLimit, store: store)
    }

    /// The samples waiting to be sent, per type.
    public func queuedCounts() throws -> [String: Int] { try store.queuedCounts() }

    /// What full exports showed deleted on the phone (`InferredDeletionList`), newest first.
    public func inferredDeletions() throws -> [InferredDeletionList.Line] {
        try InferredDeletionList.entries(store: store).map(InferredDeletionList.Line.init)
    }

    /// Puts back the deletions with `ids` (nil: the last import's); the daemon is told, and
    /// sends the samples again.
    public func restoreDeletions(ids: [SampleID]?) throws -> InferredDeletionList.Change {
        try InferredDeletionList.restore(store: store, ids: ids, controlSocket: configuration.controlSocket)
    }

    /// The last `limit` imports, the newest first.
    public func imports(limit: Int) throws -> [ImportRecord] { try store.imports(limit: limit) }
}

extension StoreLease {
    /// `store(_:)` with what the borrower makes of it (`LentStore`).
    public func uses(_ configuration: Configuration) throws -> LentStore {
        LentStore(store: try store(configuration), configuration: configuration)
    }
}
