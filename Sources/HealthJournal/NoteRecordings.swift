import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// What happens to note recordings on disk (`<state dir>/notes/`): a recording lives as long as
/// a note names it. A note removed for good (`HealthJournal.removeNote`) takes its file with it
/// at once. A note deleted with Undo on offer has its file set aside (`<file>.removed`, by
/// `removeNoteKeepingAudio`), and Undo puts it back; once `keptAsideMillis` (the web's Undo
/// lifetime) has passed, the deletion is final and the retention pass (`sweep`: 5 s after the
/// daemon starts, then hourly) removes the file. The same pass removes any other file no note
/// names (one left by a crash between the store and the disk) once it is that old, so a
/// recording being added (copied, then named in the store) is never taken.
public enum NoteRecordings {
    /// How long a recording no note names is kept: as long as the web offers Undo.
    public static let keptAsideMillis: Int64 = 10 * 60 * 1000

    /// The folder of the recordings under the state directory (`HealthJournal.notesDirectory`).
    public static func directory(stateDir: String) -> String { stateDir + "/notes" }

    /// The names among `files` (name, last modified) to remove at `now`: those `referenced`
    /// (the notes' audio files) does not hold, last modified `keptAsideMillis` ago or more.
    public static func stale(_ files: [(name: String, modifiedMillis: Int64)], referenced: Set<String>, now: Timestamp) -> [String] {
        files.filter { !referenced.contains($0.name) && $0.modifiedMillis + keptAsideMillis <= now.millis }.map(\.name)
    }

    /// Removes the stale recordings of `directory` (none when it does not exist), reading the
    /// notes from `store`; returns the names removed.
    public static func sweep(directory: String, store: SampleStore, now: Timestamp) throws -> [String] {
        guard FileSystem.exists(directory) else { return [] }
        let referenced = Set(try JournalStore(store).notes().compactMap(\.audioFile))
        let files = try FileSystem.list(directory).compactMap { name in
            FileSystem.modified(directory + "/" + name).map { (name: name, modifiedMillis: $0.millis) }
        }
        let names = stale(files, referenced: referenced, now: now)
        for name in names { try FileSystem.remove(directory + "/" + name) }
        return names
    }
}
