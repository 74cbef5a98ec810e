/// The journal's writes made inside the daemon's process (the web's forms, the journal
/// scheduler's scores), as a stream of the record types each put in line: the daemon's sync
/// coordinator reads it (`JournalWritesService`). A process of its own (the CLI) announces its
/// writes through the control socket instead.
public final class JournalWrites: Sendable {
    /// The types each write put in line, in the order written.
    public let types: AsyncStream<[String]>
    private let continuation: AsyncStream<[String]>.Continuation

    public init() {
        (types, continuation) = AsyncStream.makeStream(of: [String].self)
    }

    /// Tells the reader that a write put records of `types` in line.
    public func announce(_ types: [String]) {
        continuation.yield(types)
    }
}
