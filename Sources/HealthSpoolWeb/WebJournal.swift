import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// What the pages say when a journal write failed. (The journal's use cases a request works
/// with are made on the connection it borrows: `LentStore`.)
enum WebJournal {
    /// What a page says when a journal write failed: plainly that it was not saved when the
    /// store stayed busy (`StoreBusy`), else the error as it reads.
    static func message(_ error: any Error) -> String { StoreBusy.message(for: error) ?? "\(error)" }

    /// `message`, with "Not saved: " before an error that does not say so itself.
    static func notSaved(_ error: any Error) -> String { StoreBusy.message(for: error) ?? "Not saved: \(error)" }
}
