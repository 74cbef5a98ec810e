import HealthSpoolCore
import HealthSpoolLinux

extension JournalUseCases {
    /// The journal's use cases on `context`'s store (opened, created when needed), with or
    /// without a running daemon: the records they put in line are announced to a running daemon
    /// through its control socket, which then syncs them as it syncs imports.
    public static func open(context: DaemonContext) throws -> JournalUseCases {
        let journal = JournalUseCases(store: try context.openStore(), settings: context.settings)
        let socket = context.controlSocket
        journal.onQueued = { ControlClient.observe($0, socket: socket) }
        return journal
    }
}
