import HealthSpoolCore
import HealthSpoolDaemon

/// The symptom journal's use cases (`JournalUseCases`) opened for one web request, on the store
/// queue. Records put in line are announced to the daemon through its control socket, exactly
/// as the command line does, so the daemon syncs them as it syncs imports.
enum WebJournal {
    static func open(_ ctx: DaemonContext) throws -> JournalUseCases { try JournalUseCases.open(context: ctx) }

    /// What a page says when a journal write failed: plainly that it was not saved when the
    /// store stayed busy (`StoreBusy`), else the error as it reads.
    static func message(_ error: any Error) -> String { StoreBusy.message(for: error) ?? "\(error)" }

    /// `message`, with "Not saved: " before an error that does not say so itself.
    static func notSaved(_ error: any Error) -> String { StoreBusy.message(for: error) ?? "Not saved: \(error)" }
}
