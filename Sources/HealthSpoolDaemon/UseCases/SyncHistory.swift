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
        var lines = ["TIME                      TRIGGER   TYPES                     OUTCOME  COUNT  DURATION  ERROR"]
        for a in attempts {
            let duration = a.durationMillis >= 1000 ? "\(a.durationMillis / 1000).\(a.durationMillis % 1000 / 100) s" : "\(a.durationMillis) ms"
            lines.append("\(a.started.iso8601UTC.padding(26))\(a.trigger.padding(10))\(a.types.joined(separator: ",").padding(26))\(a.outcome.padding(9))\(String(a.count).padding(7))\(duration.padding(10))\(a.error ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}
