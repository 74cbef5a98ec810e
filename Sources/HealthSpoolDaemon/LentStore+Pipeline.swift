import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolStore

/// The pipeline's part of what a lent connection gives the web's pages: the home page, the
/// sending page, the queued counts, the inferred deletions and the recent imports (the
/// journal's part is `LentStore` itself, in HealthJournal).
extension LentStore {
    /// The home page's use case (`HomeToday`), in `zone`.
    public func home(zone: ZoneRules) -> HomeToday {
        var home = HomeToday(store: store, zone: zone, configuration: configuration)
        home.liveStatus = liveStatus
        return home
    }

    /// The sending page's view (`SendingView`), its queued counts and history read here.
    public func sending(queuedCountLimit: Int) throws -> SendingView {
        try SendingView.make(configuration: configuration, queuedCountLimit: queuedCountLimit, store: store, liveStatus: liveStatus)
    }

    /// The samples waiting to be sent, per type.
    public func queuedCounts() throws -> [String: Int] { try store.queuedCounts() }

    /// What full exports showed deleted on the phone (`InferredDeletionList`), newest first.
    public func inferredDeletions() throws -> [InferredDeletionList.Line] {
        try InferredDeletionList.entries(store: store).map(InferredDeletionList.Line.init)
    }

    /// Puts back the deletions with `ids` (nil: the last import's); the daemon is told (`announce`:
    /// in its process, a call; from another, its control socket), and sends the samples again.
    public func restoreDeletions(ids: [SampleID]?) throws -> InferredDeletionList.Change {
        try InferredDeletionList.restore(store: store, ids: ids, announce: announce)
    }

    /// The last `limit` imports, the newest first.
    public func imports(limit: Int) throws -> [ImportRecord] { try store.imports(limit: limit) }
}
