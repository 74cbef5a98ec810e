import HealthJournal
import HealthSpoolCore

/// The home page: today, for the person (issue 28, "Home is today"). Doses due with whether
/// they were taken, the symptoms and scores so far, the day's figures, the goals, and one line
/// only when sending needs attention. Made by `HomeToday`.
public struct HomeView: Sendable {
    /// One dose a medication reminder asks for today.
    public struct DoseDue: Sendable, Equatable {
        public var reminderID: Int64
        public var medicationID: Int64
        /// The medication's name, with its dose when one is set ("Ibuprofen 400 mg").
        public var medication: String
        /// HH:MM, local.
        public var time: String
        /// Whether a dose of this medication was logged today for this time (doses are
        /// matched to the day's times in order).
        public var taken: Bool
    }

    /// One symptom logged today.
    public struct SymptomLine: Sendable, Equatable {
        public var time: String
        public var symptom: String
        public var severity: Severity
    }

    /// One of today's figures: "Steps" "4,210".
    public struct Figure: Sendable, Equatable {
        /// A stable name for the page (`steps`, `sleep`, `heart-rate`, `blood-pressure`, …).
        public var id: String
        public var title: String
        public var text: String
        /// When it is not today's (a latest measurement): "yesterday", "2026-11-20".
        public var when: String?
        /// How it compares with the person's usual (nil: not enough earlier figures).
        public var glance: Glance?
    }

    public var date: CivilDate
    /// The symptoms offered as buttons (`HealthJournal.suggestedSymptoms`).
    public var symptomChoices: [String]
    public var doses: [DoseDue]
    public var symptoms: [SymptomLine]
    /// Today's scores per symptom so far, highest first (only those with entries).
    public var scores: [SymptomScore]
    public var figures: [Figure]
    public var goals: [GoalStatus]
    /// One plain sentence when sending needs attention, else nil.
    public var attention: String?
    /// One plain sentence per source that went quiet ("Your Apple Watch has sent no heart
    /// rate since Tuesday 10 March"), from the status report.
    public var quiet: [String] = []
    /// How the page writes numbers (the user's locale).
    public var style: NumberStyle
}

extension HomeView {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The line home shows when the data is not being sent, from the status report (`json`):
    /// a gateway problem ("Your data has not been sent since Tuesday: the server does not
    /// answer."), a stopped service or a lock. Nil when all is well or no server is set.
    public static func attention(status: JSONValue, today: CivilDate, zone: ZoneRules) -> String? {
        let state = status["daemon"]?["state"]?.stringValue ?? "stopped"
        if state == "stopped" { return "Your data is not being sent: the background service is not running." }
        if state == "locked" { return "Sending is paused: it was locked in Settings." }
        guard status["gateway"]?["url"]?.stringValue != nil,
              let problem = status["gateway"]?["stoppedReason"]?.stringValue ?? status["gateway"]?["error"]?.stringValue else { return nil }
        var since = "yet"
        if let at = status["lastSuccessfulSync"]?["at"]?.stringValue, let t = TimestampParser.parse(at) {
            let day = WallClock.localDay(of: t, zone: zone)
            let ago = today.daysSinceEpoch - day.daysSinceEpoch
            since = ago <= 0 ? "since " + String(LocalDay.timestamp(t.millis, in: zone).iso8601Local.dropFirst(11).prefix(5))
                : ago == 1 ? "since yesterday" : ago < 7 ? "since " + weekdays[day.weekday] : "since \(day)"
        }
        return "Your data has not been sent \(since): \(reason(problem))."
    }

    /// A gateway error in words: the server does not answer, refuses the key, is not trusted, or
    /// refuses the data. A status is read as "HTTP 401", never as digits anywhere: a refused
    /// connection's text names its port and milliseconds ("port 40133 after 403 ms").
    static func reason(_ problem: String) -> String {
        let p = problem.lowercased()
        if ["http 401", "http 403", "unauthori", "forbidden", "credential", "password", "api key"].contains(where: p.contains) {
            return "the server does not accept its password or key"
        }
        if ["certificate", "tls", "ssl"].contains(where: p.contains) { return "the server's certificate is not trusted" }
        if ["timed out", "timeout", "connect", "resolve", "refused", "unreachable", "no route"].contains(where: p.contains) {
            return "the server does not answer"
        }
        return "the server did not take it"
    }
}
