import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

extension JournalUseCases {
    /// The journal's use cases on `store`, a connection already open (one borrowed from a
    /// `StorePool`, or a command's), with `settings`, with or without a running daemon: the
    /// records they put in line are announced to a running daemon through its control socket
    /// (`controlSocket`), which then syncs them as it syncs imports.
    public static func on(_ store: SampleStore, settings: Settings, controlSocket socket: String) -> JournalUseCases {
        let journal = JournalUseCases(store: store, settings: settings)
        journal.onQueued = { ControlClient.observe($0, socket: socket) }
        return journal
    }
}
