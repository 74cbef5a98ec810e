import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux

extension StatusReport {
    /// `lock`: what holds the lock (`flag`, `session`, `sleep`) and since when (local time),
    /// the `lock.follow_session` setting, the session followed and why none is. The flag is read
    /// from its file (a stopped daemon's flag still holds); the rest comes from a running
    /// daemon's status file (`live`).
    static func lockMember(_ configuration: Configuration, live: JSONValue?) -> JSONValue {
        var holds = (live?["holds"]?.arrayValue ?? []).filter { $0["by"]?.stringValue != LockHolds.Holder.flag.rawValue }
            .map { hold -> JSONValue in .object([("by", hold["by"] ?? .null), ("since", local(hold["since"]))]) }
        if LockFlag.isSet(path: configuration.lockFlagPath) {
            let daemonSince = live?["holds"]?.arrayValue?.first { $0["by"]?.stringValue == LockHolds.Holder.flag.rawValue }?["since"]
            let fileSince = FileSystem.modified(configuration.lockFlagPath).map { JSONValue.string(local(Timestamp(millis: $0.millis))) }
            holds.insert(.object([("by", .string(LockHolds.Holder.flag.rawValue)),
                                  ("since", daemonSince.map { local($0) } ?? fileSince ?? .null)]), at: 0)
        }
        return .object([
            ("holds", .array(holds)),
            ("followSession", live?["followSession"] ?? .string(configuration.settings.lockFollowSession.rawValue)),
            ("session", live?["session"] ?? .null),
            ("sessionNote", live?["sessionNote"] ?? .null),
        ])
    }

    /// The `lock:` and `session:` lines of the text report.
    static func lockLines(_ lock: JSONValue, daemonRunning: Bool) -> [String] {
        var lines: [String] = []
        let holds = (lock["holds"]?.arrayValue ?? []).compactMap { hold -> (LockHolds.Holder, String)? in
            guard let holder = hold["by"]?.stringValue.flatMap(LockHolds.Holder.init(rawValue:)) else { return nil }
            return (holder, hold["since"]?.stringValue ?? "")
        }
        if !holds.isEmpty {
            let by = holds.map { "\($0.0.phrase)\($0.1.isEmpty ? "" : " since \($0.1)")" }.joined(separator: ", ")
            var steps: [String] = []
            for (holder, _) in holds {
                switch holder {
                case .flag: steps.append("'healthspool unlock'")
                case .session: steps.append("the session is unlocked")
                case .sleep: steps.append("the machine resumes")
                case .keyring: steps.append("the keyring is unlocked")
                }
            }
            lines.append("lock:        LOCKED by \(by) — nothing is read or sent until \(steps.joined(separator: " and "))")
        }
        guard daemonRunning else { return lines }
        if let session = lock["session"], let id = session["id"]?.stringValue {
            let type = session["type"]?.stringValue ?? ""
            lines.append("session:     following the lock of logind session \(id)\(type.isEmpty ? "" : " (\(type))")")
        } else if lock["followSession"]?.stringValue == SessionFollow.off.rawValue {
            lines.append("session:     lock not followed (lock.follow_session = off); the lock flag alone")
        } else if let note = lock["sessionNote"]?.stringValue {
            lines.append("session:     lock not followed: \(note); the lock flag alone")
        }
        return lines
    }
}
