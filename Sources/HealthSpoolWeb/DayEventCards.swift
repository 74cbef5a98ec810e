import HealthSpoolCore
import HealthJournal

/// The day view's heart-rate notifications and cycle entries (`day-events.mustache`), from
/// `DayEvents`: a line each, with its time.
struct DayEventCards: Sendable {
    struct Line: Sendable {
        let time: String
        let text: String
        let attention: Bool
    }

    let notifications: [Line]
    let cycle: [Line]
    let hasNotifications: Bool
    let hasCycle: Bool

    init?(_ e: DayEvents, clock: (Int64) -> String) {
        guard !e.isEmpty else { return nil }
        notifications = e.notifications.map { Line(time: clock($0.start.millis), text: $0.sentence, attention: $0.kind == "irregular") }
        cycle = e.cycle.map { Line(time: clock($0.start.millis), text: $0.sentence, attention: false) }
        hasNotifications = !notifications.isEmpty
        hasCycle = !cycle.isEmpty
    }
}
