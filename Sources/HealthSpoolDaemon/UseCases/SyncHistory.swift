import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// Recent sync attempts, one row each: the use case behind `healthspool history`.
public enum SyncHistory {
    /// The last `limit` attempts, newest first, as a table or JSON.
    public static func report(context: DaemonContext, limit: Int, json: Bool) throws -> String {
        guard FileSystem.exists(context.storePath) else { return json ? "[]" : "no sync attempts yet" }
        let attempts = try SampleStore(path: context.storePath).syncHistory(limit: limit)
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
