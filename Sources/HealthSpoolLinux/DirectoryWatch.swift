import Dispatch

/// inotify on directories as an `AsyncSequence` (`events`): a `SpoolWatcher` on a serial queue
/// of its own, each event yielded to the stream, which its owner (one of the daemon's services)
/// consumes. The stream ends when the watcher stops; the watcher stops at `stop()`, when the
/// stream is ended by its consumer (its task cancelled, the stream dropped) or when this value
/// goes. Whichever comes first closes the inotify descriptor, once (`SpoolWatcher.stop`).
public final class DirectoryWatch: Sendable {
    /// What the watcher saw, in order. Ends once the watcher stopped.
    public let events: AsyncStream<WatchEvent>
    /// The directories watched.
    public let directories: [String]
    private let watcher: SpoolWatcher

    /// Starts watching `directories` (each must exist); `label` names the watcher's queue.
    public init(directories: [String], label: String) throws {
        let (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self)
        // A queue of its own, not a global one (issue 39: see `TaskThreadPool`).
        let watcher = try SpoolWatcher(directories: directories, queue: DispatchQueue(label: label),
                                       handler: { continuation.yield($0) }, stopped: { continuation.finish() })
        continuation.onTermination = { _ in watcher.stop() }
        self.events = events
        self.directories = directories
        self.watcher = watcher
    }

    deinit { watcher.stop() }

    /// Stops watching: the descriptor is closed and `events` ends after the events already
    /// read. Safe from any thread, any number of times.
    public func stop() { watcher.stop() }

    /// The inotify descriptor (for tests).
    var descriptor: Int32 { watcher.descriptor }
}
