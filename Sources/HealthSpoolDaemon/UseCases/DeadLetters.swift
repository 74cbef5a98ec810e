import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// Samples the gateway rejected as bad, parked instead of blocking the queue: listed, or queued
/// again. The use case behind `healthspool dead-letters` (and, later, the web interface).
public enum DeadLetters {
    /// The parked samples (at most 200) in `store`, of `type` only when given, as text or JSON.
    public static func list(store: SampleStore, type: String?, json: Bool) throws -> String {
        let wanted = type.map(DataType.canonicalName)
        let parked = try store.deadLetters(limit: 200).filter { wanted == nil || $0.0.sample.type == wanted }
        if json {
            var w = JSONWriter()
            w.value(.array(parked.map { s, reason in
                .object([("id", .string(s.sample.id.description)), ("type", .string(s.sample.type)), ("value", .number(s.sample.value)),
                         ("startDate", .string(s.sample.start.iso8601Local)), ("reason", .string(reason))])
            }))
            return w.text
        }
        if parked.isEmpty { return "no dead letters" }
        var lines = parked.map { s, reason in
            "\(s.sample.id)  \(s.sample.type.padding(24)) \(SampleIdentity.canonicalNumber(s.sample.value)) \(s.sample.unit)  \(s.sample.start.iso8601Local)  \(reason)"
        }
        lines.append("re-send them with: healthspool dead-letters --retry")
        return lines.joined(separator: "\n")
    }

    /// Puts the parked samples (of `type` only when given) back at the end of their type's
    /// queue and tells a running daemon (at `controlSocket`), which sends them; returns how many.
    public static func requeue(store: SampleStore, type: String?, controlSocket: String) throws -> Int {
        let counts = try store.requeueDeadLetters(type: type.map(DataType.canonicalName))
        let n = counts.values.reduce(0, +)
        if n > 0, let client = ControlClient(path: controlSocket, timeoutSeconds: 5) {
            _ = client.send(.object([("command", .string("observe")), ("types", .array(counts.keys.sorted().map(JSONValue.string)))]))
            _ = client.next()
        }
        return n
    }
}
