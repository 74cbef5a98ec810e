import HealthSpoolCore

extension ControlClient {
    /// Tells a running daemon that `types` gained queued records outside it (a journal entry,
    /// a manual measurement, `healthspool import`), so it syncs them as it syncs imports: one
    /// `observe` request on `socket`, waiting at most 5 s for the answer. Nothing when `types`
    /// is empty or no daemon listens (the records wait for the daemon's next start).
    public static func observe(_ types: [String], socket: String) {
        guard !types.isEmpty, let client = ControlClient(path: socket, timeoutSeconds: 5) else { return }
        _ = client.send(.object([("command", .string("observe")), ("types", .array(types.map(JSONValue.string)))]))
        _ = client.next()
    }
}
