import HealthSpoolStore

/// What a person reads when their journal entry could not be saved because the store stayed
/// busy (the daemon held its write lock past the command's wait): plainly that nothing was
/// saved and what to do, never SQLite's own words.
public enum StoreBusy {
    /// The message, the same in the CLI and on the web.
    public static let notSaved = "Not saved: the health store is busy (the daemon is importing). Nothing was changed; try again in a minute."

    /// `notSaved` when `error` is the store staying busy (also inside a `JournalRunner.Refusal`);
    /// nil for any other error.
    public static func message(for error: any Error) -> String? {
        if let e = error as? StoreError, e.isBusy { return notSaved }
        if let r = error as? JournalRunner.Refusal, r.description == notSaved { return notSaved }
        return nil
    }
}
