import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

extension JournalUseCases {
    /// The journal's use cases on `context`'s store (opened, created when needed), with or
    /// without a running daemon: the records they put in line are announced to a running daemon
    /// through its control socket, which then syncs them as it syncs imports.
    /// A write waits for the daemon's write lock as long as a person would
    /// (`SampleStore.interactiveBusyTimeout`).
    public static func open(context: DaemonContext) throws -> JournalUseCases {
        on(try context.openStore(busyTimeout: SampleStore.interactiveBusyTimeout), context: context)
    }

    /// The same on `store`, a connection already open (one borrowed from a `StorePool`).
    public static func on(_ store: SampleStore, context: DaemonContext) -> JournalUseCases {
        let journal = JournalUseCases(store: store, settings: context.settings)
        let socket = context.controlSocket
        journal.onQueued = { ControlClient.observe($0, socket: socket) }
        return journal
    }
}
