import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// The deletions full exports showed (issue 43): listed, applied when they waited over the
/// bound, or undone. The use case behind `healthspool deletions` and the web's Deletions page.
public enum InferredDeletionList {
    /// A change made: how many samples and the types put in line.
    public struct Change: Sendable, Equatable {
        public var count: Int
        public var types: [String]
    }

    /// One inferred deletion as a page shows it.
    public struct Line: Sendable, Equatable {
        public var id: SampleID
        public var type: String
        public var start: Timestamp
        /// When the export that no longer held it was imported.
        public var found: Timestamp
        public var state: SampleStore.InferredDeletion.State

        public init(_ d: SampleStore.InferredDeletion) {
            id = d.key.id
            type = d.key.type
            start = Timestamp(millis: d.key.startMillis)
            found = Timestamp(millis: d.atMillis)
            state = d.state
        }
    }

    /// The inferred deletions (at most 1000, newest import first).
    public static func entries(store: SampleStore) throws -> [SampleStore.InferredDeletion] {
        try store.inferredDeletions(limit: 1000)
    }

    /// What a state is called.
    public static func word(_ state: SampleStore.InferredDeletion.State) -> String {
        switch state {
        case .waiting: "waiting"
        case .deleted: "deleted"
        case .restored: "restored"
        }
    }

    /// The list as `healthspool deletions` prints it, as text or JSON.
    public static func list(store: SampleStore, json: Bool) throws -> String {
        let all = try entries(store: store)
        if json {
            var w = JSONWriter()
            w.value(.array(all.map { d in
                .object([("id", .string(d.key.id.description)), ("type", .string(d.key.type)),
                         ("startDate", .string(Timestamp(millis: d.key.startMillis).iso8601UTC)),
                         ("exportDate", .string(Timestamp(millis: d.exportMillis).iso8601UTC)),
                         ("importedAt", .string(Timestamp(millis: d.atMillis).iso8601UTC)), ("state", .string(word(d.state)))])
            }))
            return w.text
        }
        if all.isEmpty { return "no samples were found deleted on the phone (full exports compared: none missing)" }
        var lines = all.map { d in
            "\(d.key.id)  \(d.key.type.padding(24)) \(Timestamp(millis: d.key.startMillis).iso8601UTC)  \(word(d.state))"
        }
        if all.contains(where: { $0.state == .waiting }) {
            lines.append("waiting: more than one import may mark (store.deletions_max_percent); mark them with: healthspool deletions apply")
        }
        if all.contains(where: { $0.state == .deleted }) {
            lines.append("put the last import's back with: healthspool deletions --restore (or name ids)")
        }
        return lines.joined(separator: "\n")
    }

    /// Marks the waiting deletions deleted and tells a running daemon, which sends the tombstones.
    public static func apply(store: SampleStore, controlSocket: String) throws -> Change {
        let (n, types) = try store.applyWaitingDeletions()
        observe(types, controlSocket: controlSocket)
        return Change(count: n, types: types)
    }

    /// Puts back the deletions with `ids` (nil: the last import's) and tells a running daemon,
    /// which sends the samples again (same id, higher version).
    public static func restore(store: SampleStore, ids: [SampleID]?, controlSocket: String?) throws -> Change {
        try restore(store: store, ids: ids) { types in
            if let controlSocket { observe(types, controlSocket: controlSocket) }
        }
    }

    /// Puts back the deletions with `ids` (nil: the last import's) and tells `announce` the types
    /// (inside the daemon's process: its sync coordinator, through the pool's `journalWrites`).
    static func restore(store: SampleStore, ids: [SampleID]?, announce: ([String]) -> Void) throws -> Change {
        let (n, types) = try store.restoreDeletions(ids: ids)
        if !types.isEmpty { announce(types) }
        return Change(count: n, types: types)
    }

    private static func observe(_ types: [String], controlSocket: String) {
        guard !types.isEmpty, let client = ControlClient(path: controlSocket, timeoutSeconds: 5) else { return }
        _ = client.send(.object([("command", .string("observe")), ("types", .array(types.map(JSONValue.string)))]))
        _ = client.next()
    }
}
