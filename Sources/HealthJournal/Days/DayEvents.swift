import HealthSpoolCore
import HealthSpoolStore

/// A day's heart-rate notifications (high, low, irregular rhythm) and cycle-tracking entries,
/// as the day view and the doctor's summary show them.
public struct DayEvents: Sendable {
    /// One heart-rate notification.
    public struct Notification: Sendable {
        public var start: Timestamp
        /// `high`, `low`, `irregular`.
        public var kind: String
        /// The rate given (bpm), if any.
        public var rate: Double?
        public var threshold: String?

        /// "High heart rate: 131 bpm (above 120)".
        public var sentence: String {
            let title = switch kind {
            case "high": "High heart rate"
            case "low": "Low heart rate"
            default: "Irregular rhythm"
            }
            var s = title
            if let rate { s += ": \(Int(rate.rounded())) bpm" }
            if let threshold { s += kind == "low" ? " (below \(threshold))" : kind == "high" ? " (above \(threshold))" : "" }
            return s
        }
    }

    /// One cycle-tracking entry.
    public struct CycleEntry: Sendable {
        public var start: Timestamp
        /// "Menstrual flow: Medium".
        public var sentence: String
    }

    public var notifications: [Notification]
    public var cycle: [CycleEntry]

    public var isEmpty: Bool { notifications.isEmpty && cycle.isEmpty }

    /// The notifications and entries starting in `from..<to` (UTC ms).
    public static func read(_ store: SampleStore, from: Int64, to: Int64) throws -> DayEvents {
        let notifications = try store.recordings(type: "heartRateNotification", from: from, to: to).map { n in
            Notification(start: n.start, kind: n.metadata["kind"] ?? "irregular", rate: n.value > 0 ? n.value : nil,
                          threshold: n.metadata["threshold"])
        }
        let cycle = try store.recordings(type: "cycleTracking", from: from, to: to).map { c in
            let kind = (c.metadata["kind"] ?? "cycle entry").split(separator: "_").joined(separator: " ")
            let name = kind.prefix(1).uppercased() + kind.dropFirst()
            return CycleEntry(start: c.start, sentence: c.metadata["valueText"].map { "\(name): \($0)" } ?? name)
        }
        return DayEvents(notifications: notifications, cycle: cycle)
    }
}
