import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// Recent sync attempts, one row each: the use case behind `healthspool history`.
public enum SyncHistory {
    /// The last `limit` attempts in the store at `storePath` (none when it does not exist yet),
    /// newest first, as a table or JSON.
    public static func report(storePath: String, limit: Int, json: Bool) throws -> String {
        guard FileSystem.exists(storePath) else { return json ? "[]" : "no sync attempts yet" }
        let attempts = try SampleStore(path: storePath).syncHistory(limit: limit)
        if json {
            var w = JSONWriter()
            w.value(.array(attempts.map(StatusReport.json)))
            return w.text
        }
        if attempts.isEmpty { return "no sync attempts yet" }
        let rows = attempts.map { a -> [String] in
            let duration = a.durationMillis >= 1000 ? "\(a.durationMillis / 1000).\(a.durationMillis % 1000 / 100) s" : "\(a.durationMillis) ms"
            return [StatusReport.local(a.started), a.trigger, a.types.joined(separator: ","), a.outcome, String(a.count), duration, a.error ?? ""]
        }
        return TextTable(["TIME", "TRIGGER", "TYPES", "OUTCOME", "COUNT", "DURATION", "ERROR"], rows).text
    }
}
