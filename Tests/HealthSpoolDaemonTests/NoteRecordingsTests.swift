@testable import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging
import Testing
@testable import HealthSpoolDaemon

/// Note recordings on disk: a recording goes when no note names it any more and the Undo window
/// has passed (`NoteRecordings`). Real SQLite and files in a temporary home; the sweep's `now`
/// is read from the files' own modification times, so nothing waits.
@Suite struct NoteRecordingsTests {
    let context: Configuration
    let dir: String
    let journal: HealthJournal
    let now = JournalHome.now

    init() throws {
        (context, dir) = try JournalHome.context()
        journal = try HealthJournal(context: context)
    }

    /// A note with a recording (a few bytes in an .ogg file).
    func noteWithRecording(_ text: String) throws -> Note {
        let source = dir + "/recording-\(text).ogg"
        try FileSystem.writeAtomically(source, Array("OggS \(text)".utf8), mode: 0o600)
        return try journal.addNote(text: text, category: nil, audio: source, now: now)
    }

    var files: [String] { (try? FileSystem.list(journal.notesDirectory)) ?? [] }

    /// The instant `millis` after the last change of `name` in the notes folder.
    func after(_ name: String, _ millis: Int64) throws -> Timestamp {
        let changed = try #require(FileSystem.modified(journal.notesDirectory + "/" + name))
        return Timestamp(millis: changed.millis + millis)
    }

    func sweep(at t: Timestamp) throws -> [String] {
        try NoteRecordings.sweep(directory: NoteRecordings.directory(stateDir: context.stateDir), store: journal.store, now: t)
    }

    @Test func theFolderSweptIsTheOneRecordingsAreKeptIn() {
        defer { _ = try? FileSystem.removeTree(dir) }
        #expect(NoteRecordings.directory(stateDir: context.stateDir) == journal.notesDirectory)
    }

    @Test func aNoteDeletedWithUndoOnOfferLosesItsRecordingOnceTheUndoWindowHasPassed() throws {
        defer { _ = try? FileSystem.removeTree(dir) }
        let n = try noteWithRecording("ask")
        _ = try journal.removeNoteKeepingAudio(n.id)
        let aside = try #require(files.first)
        #expect(files == ["\(n.id).ogg.removed"])
        #expect(try sweep(at: after(aside, NoteRecordings.keptAsideMillis - 1)).isEmpty)
        #expect(files == [aside])
        #expect(try sweep(at: after(aside, NoteRecordings.keptAsideMillis)) == [aside])
        #expect(files.isEmpty)
    }

    @Test func undoneWithinTheWindowTheRecordingIsBackAndKeptForGood() throws {
        defer { _ = try? FileSystem.removeTree(dir) }
        let n = try noteWithRecording("ask")
        let removed = try journal.removeNoteKeepingAudio(n.id)
        try journal.restoreNote(removed)
        #expect(files == ["\(n.id).ogg"])
        #expect(try sweep(at: after("\(n.id).ogg", 365 * 86_400_000)).isEmpty)
        #expect(try FileSystem.read(try #require(journal.audioPath(journal.note(n.id)))) == Array("OggS ask".utf8))
    }

    @Test func aRecordingNoNoteNamesIsRemovedAtTheSweepAndTheNamedOnesStay() throws {
        defer { _ = try? FileSystem.removeTree(dir) }
        let kept = try noteWithRecording("kept")
        let other = try noteWithRecording("other")
        // Left by a crash between the disk and the store: a file no note names.
        try FileSystem.writeAtomically(journal.notesDirectory + "/999.webm", Array("stray".utf8), mode: 0o600)
        let t = try after("999.webm", NoteRecordings.keptAsideMillis)
        #expect(try sweep(at: t) == ["999.webm"])
        #expect(files == ["\(kept.id).ogg", "\(other.id).ogg"])
    }

    @Test func aRecordingJustCopiedInIsNotTakenBeforeItsNoteNamesIt() throws {
        defer { _ = try? FileSystem.removeTree(dir) }
        try FileSystem.makeDirectory(journal.notesDirectory, mode: 0o700)
        try FileSystem.writeAtomically(journal.notesDirectory + "/5.ogg", Array("new".utf8), mode: 0o600)
        #expect(try sweep(at: after("5.ogg", 1000)).isEmpty)
        #expect(files == ["5.ogg"])
    }

    @Test func theRetentionPassSweepsTheRecordings() throws {
        defer { _ = try? FileSystem.removeTree(dir) }
        let n = try noteWithRecording("gone")
        _ = try journal.removeNoteKeepingAudio(n.id)
        let t = try after("\(n.id).ogg.removed", NoteRecordings.keptAsideMillis)
        RetentionService.prune(store: journal.store, settings: context.settings, spool: context.spool,
                              notes: NoteRecordings.directory(stateDir: context.stateDir), logger: Logger(label: "test"), now: t)
        #expect(files.isEmpty)
    }

    @Test func aHomeWithoutRecordingsHasNothingToSweep() throws {
        defer { _ = try? FileSystem.removeTree(dir) }
        #expect(try sweep(at: now).isEmpty)
    }
}
